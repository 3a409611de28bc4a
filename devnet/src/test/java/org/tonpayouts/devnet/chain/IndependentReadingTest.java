package org.tonpayouts.devnet.chain;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.math.BigInteger;
import java.time.Instant;
import java.util.Base64;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.tonpayouts.devnet.ManualClock;
import org.tonpayouts.ton.address.TonAddress;
import org.tonpayouts.ton.cell.MessageCells;
import org.tonpayouts.ton.cell.TonCell;
import org.tonpayouts.ton.keys.WalletKey;
import org.tonpayouts.ton.wallet.SignedTransfer;
import org.tonpayouts.ton.wallet.Subwallets;
import org.tonpayouts.ton.wallet.TransferOrder;
import org.tonpayouts.ton.wallet.TransferSigner;

/**
 * devnet's second reading of a wallet message (ton4j's cells and TL-B) says what its own reading
 * says for the messages the signer makes, and refuses a message the moment the two differ: a
 * codec bug that reads a field the way it wrongly wrote it is caught, not passed both ways.
 */
class IndependentReadingTest {
  private static final long SUBWALLET = 698_983_191L;
  private static final long NOW = 1_800_000_000L;
  private static final WalletKey KEY = WalletKey.fromSeed(new byte[32]);
  private static final Subwallets SUBWALLETS = new Subwallets(KEY, TonAddress.BASECHAIN);
  private static final TransferSigner SIGNER = new TransferSigner(SUBWALLETS);
  private static final TonAddress WALLET = SUBWALLETS.address(SUBWALLET);
  private static final TonAddress USER = TonAddress.of(0, new byte[] {
      1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29, 30,
      31, (byte) 0xff});

  @Test
  void shouldReadTheSignersMessagesAsDevnetReadsThem() throws Exception {
    TonCell jettonBody = TonCell.builder().storeUint(0x0f8a7ea5L, 32).storeUint(77, 64).storeRef(TonCell.EMPTY)
        .endCell();
    for (long seqno : new long[] {0, 5}) { // 0 carries the StateInit
      byte[] boc = sign(seqno, new TransferOrder(USER, 1_500_000_000L, "order 77", false),
          new TransferOrder(USER, Long.MAX_VALUE / 4, null, true),
          TransferOrder.withBody(USER, 50_000_000L, jettonBody, true));
      WalletV4R2.Accepted accepted = accept(boc, seqno);

      IndependentReading.check(boc, accepted);

      IndependentReading.Reading reading = IndependentReading.read(boc);
      assertThat(reading.destination()).isEqualTo(WALLET.toRaw());
      assertThat(reading.initHash()).isEqualTo(seqno == 0 ? SUBWALLETS.stateInit(SUBWALLET).hashHex() : null);
      assertThat(reading.seqno()).isEqualTo(seqno);
      assertThat(reading.subwalletId()).isEqualTo(SUBWALLET);
      assertThat(reading.validUntil()).isEqualTo(NOW + 60);
      assertThat(reading.sends()).extracting(send -> send.internal().value())
          .containsExactly(BigInteger.valueOf(1_500_000_000L), BigInteger.valueOf(Long.MAX_VALUE / 4),
              BigInteger.valueOf(50_000_000L));
      assertThat(reading.sends()).extracting(send -> send.internal().bounce()).containsExactly(false, true, true);
      assertThat(reading.sends().get(2).internal().bodyHash()).isEqualTo(jettonBody.hashHex());
      assertThat(reading.sends()).allSatisfy(send -> assertThat(send.internal().destination()).isEqualTo(USER.toRaw()));
    }
  }

  @Test
  void shouldRefuseAMessageWhoseHeaderTheTwoReadingsReadDifferently() throws Exception {
    byte[] boc = sign(5, new TransferOrder(USER, 1_000_000_000L, null, false));
    WalletV4R2.Accepted accepted = accept(boc, 5);
    WalletV4R2.Body body = accepted.body();
    WalletV4R2.Body misreadSeqno = new WalletV4R2.Body(body.signature(), body.signedHash(), body.subwalletId(),
        body.validUntil(), body.seqno() + 1, body.tail());

    assertThatThrownBy(() -> IndependentReading.check(boc, withBody(accepted, misreadSeqno)))
        .isInstanceOf(MalformedMessageException.class)
        .hasMessageContaining("disagree on seqno: the ton module reads 6, ton4j reads 5");

    WalletV4R2.Body misreadSignedPart = new WalletV4R2.Body(body.signature(), new byte[32], body.subwalletId(),
        body.validUntil(), body.seqno(), body.tail());
    assertThatThrownBy(() -> IndependentReading.check(boc, withBody(accepted, misreadSignedPart)))
        .isInstanceOf(MalformedMessageException.class).hasMessageContaining("disagree on signed hash");
  }

  @Test
  void shouldRefuseAMessageWhoseSendsTheTwoReadingsReadDifferently() throws Exception {
    byte[] boc = sign(5, new TransferOrder(USER, 1_000_000_000L, null, false));
    WalletV4R2.Accepted accepted = accept(boc, 5);
    WalletV4R2.Action send = accepted.actions().get(0);

    WalletV4R2.Action otherMode = new WalletV4R2.Action(128, send.message());
    assertThatThrownBy(() -> IndependentReading.check(boc, withActions(accepted, List.of(otherMode))))
        .hasMessageContaining("disagree on send #0 mode: the ton module reads 128, ton4j reads 3");

    TonCell otherValue = MessageCells.internalInfo(false, false, null, USER, 2_000_000_000L, 0, 0, 0, 0)
        .storeBit(false).storeBit(false).endCell();
    assertThatThrownBy(() -> IndependentReading.check(boc,
        withActions(accepted, List.of(new WalletV4R2.Action(3, otherValue)))))
        .hasMessageContaining("disagree on send #0 message hash");

    assertThatThrownBy(() -> IndependentReading.check(boc, withActions(accepted, List.of())))
        .hasMessageContaining("disagree on number of sends: the ton module reads 0, ton4j reads 1");
  }

  @Test
  void shouldAcceptASendThatNeitherReadingTakesForAnInternalMessage() throws Exception {
    // the wallet accepts such a message and its action phase fails on the send, as on chain
    TonCell externalOut = TonCell.builder().storeUint(3, 2).storeUint(0, 2).storeUint(0, 2).endCell();
    TonCell garbage = TonCell.builder().storeUint(0, 1).storeUint(5, 3).endCell();
    byte[] boc = signedByHand(5, List.of(externalOut, garbage));
    WalletV4R2.Accepted accepted = accept(boc, 5);

    IndependentReading.check(boc, accepted);

    assertThat(IndependentReading.read(boc).sends()).extracting(IndependentReading.Send::internal)
        .containsOnlyNulls().hasSize(2);
  }

  @Test
  void shouldRefuseWhatTon4jCannotReadAsAWalletMessage() throws Exception {
    byte[] boc = sign(5, new TransferOrder(USER, 1_000_000_000L, null, false));
    WalletV4R2.Accepted accepted = accept(boc, 5);
    byte[] other = TonCell.builder().storeUint(7, 8).endCell().toBoc();

    assertThatThrownBy(() -> IndependentReading.check(other, accepted))
        .isInstanceOf(MalformedMessageException.class)
        .hasMessageContaining("disagree on the message as a whole");
  }

  @Test
  void shouldReadEveryMessageTheChainAcceptsASecondTimeOncePerBoc() throws Exception {
    Chain chain = new Chain(ManualClock.fixedAt(Instant.ofEpochSecond(NOW)), 1, ContractCodes.none());
    chain.fund(WALLET, 10_000_000_000L, false);
    byte[] first = sign(0, new TransferOrder(USER, 1_000_000_000L, null, false));

    chain.submit(first);
    chain.check(first); // a client's re-send of the pending message
    chain.check(sign(0, new TransferOrder(USER, 2_000_000_000L, null, false)));

    assertThat(chain.messagesReadTwice()).isEqualTo(2);
  }

  @Test
  void shouldReadEachDistinctBocOnce() throws Exception {
    byte[] boc = sign(5, new TransferOrder(USER, 1_000_000_000L, null, false));
    WalletV4R2.Accepted accepted = accept(boc, 5);
    IndependentReading reading = new IndependentReading(1);

    reading.confirm(boc, accepted);
    reading.confirm(boc.clone(), withActions(accepted, List.of())); // remembered: not read again

    byte[] other = sign(6, new TransferOrder(USER, 1_000_000_000L, null, false));
    assertThatThrownBy(() -> reading.confirm(other, withActions(accept(other, 6), List.of())))
        .hasMessageContaining("disagree on number of sends");
    assertThat(reading.remembered()).isEqualTo(1);
  }

  private static byte[] sign(long seqno, TransferOrder... orders) {
    SignedTransfer signed = SIGNER.sign(SUBWALLET, seqno, Instant.ofEpochSecond(NOW + 60), List.of(orders));
    return Base64.getDecoder().decode(signed.boc());
  }

  /** A wallet message built with our cells alone, mode 3 sends of {@code messages} as they are. */
  private static byte[] signedByHand(long seqno, List<TonCell> messages) {
    var unsigned = TonCell.builder().storeUint(SUBWALLET, 32).storeUint(NOW + 60, 32).storeUint(seqno, 32)
        .storeUint(0, 8);
    var signed = TonCell.builder();
    for (TonCell message : messages) {
      unsigned.storeUint(3, 8).storeRef(message);
    }
    TonCell unsignedBody = unsigned.endCell();
    TonCell body = signed.storeBytes(KEY.sign(unsignedBody.hash())).storeCell(unsignedBody).endCell();
    return MessageCells.externalIn(WALLET, null, body).toBoc();
  }

  /** devnet's own reading and the wallet's checks, against a wallet at {@code seqno} (deployed unless 0). */
  private static WalletV4R2.Accepted accept(byte[] boc, long seqno) throws Exception {
    ExternalMessage message = ExternalMessage.parse(boc);
    WalletData data = new WalletData(seqno, SUBWALLET, KEY.publicKey());
    AccountView account = seqno == 0
        ? new AccountView(WALLET, AccountState.UNINITIALIZED, 10_000_000_000L, null, 0, AccountView.NO_HASH, 1, null)
        : new AccountView(WALLET, AccountState.ACTIVE, 10_000_000_000L, data, 0, AccountView.NO_HASH, 1, null);
    return WalletV4R2.check(message, account, NOW, null);
  }

  private static WalletV4R2.Accepted withBody(WalletV4R2.Accepted accepted, WalletV4R2.Body body) {
    return new WalletV4R2.Accepted(accepted.message(), accepted.wallet(), accepted.deploys(), body,
        accepted.actions());
  }

  private static WalletV4R2.Accepted withActions(WalletV4R2.Accepted accepted, List<WalletV4R2.Action> actions) {
    return new WalletV4R2.Accepted(accepted.message(), accepted.wallet(), accepted.deploys(), accepted.body(),
        actions);
  }
}
