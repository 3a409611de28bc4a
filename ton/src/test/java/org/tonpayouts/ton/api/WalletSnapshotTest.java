package org.tonpayouts.ton.api;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.math.BigInteger;
import org.junit.jupiter.api.Test;
import org.ton.ton4j.cell.CellBuilder;
import org.tonpayouts.ton.address.TonAddress;

/** The synced wallet view is read from one getAddressInformation answer, seqno from the data cell. */
class WalletSnapshotTest {
  private static final TonAddress WALLET = TonAddress.of(0, new byte[32]);
  private static final TransactionId LAST = new TransactionId(12_000_005L, "ab".repeat(32));

  private static String walletData(long seqno, long subwalletId) {
    return CellBuilder.beginCell()
        .storeUint(BigInteger.valueOf(seqno), 32)
        .storeUint(BigInteger.valueOf(subwalletId), 32)
        .storeUint(BigInteger.ONE.shiftLeft(255), 256)
        .storeBit(false)
        .endCell()
        .toBase64();
  }

  @Test
  void shouldReadSeqnoSubwalletBalanceAndNodeTimeFromOneAnswer() {
    AddressInfo info = new AddressInfo(5_000_000_000L, "active", "code", walletData(17, 698983191L), LAST, 1_700_000_123L);

    WalletSnapshot snapshot = TonApiClient.snapshotOf(WALLET, info);

    assertThat(snapshot.seqno()).isEqualTo(17);
    assertThat(snapshot.subwalletId()).isEqualTo(698983191L);
    assertThat(snapshot.balance()).isEqualTo(5_000_000_000L);
    assertThat(snapshot.syncUtime()).isEqualTo(1_700_000_123L);
    assertThat(snapshot.lastTransactionLt()).isEqualTo(12_000_005L);
  }

  @Test
  void shouldGiveSeqnoZeroForAnUninitializedWallet() {
    WalletSnapshot snapshot = TonApiClient.snapshotOf(WALLET,
        new AddressInfo(1_000L, "uninitialized", null, null, null, 1_700_000_000L));

    assertThat(snapshot.seqno()).isZero();
    assertThat(snapshot.isUninitialized()).isTrue();
    assertThat(snapshot.lastTransactionLt()).isZero();
  }

  @Test
  void shouldRefuseAFrozenAccountAndDataThatIsNotAWallet() {
    assertThatThrownBy(() -> TonApiClient.snapshotOf(WALLET,
        new AddressInfo(0, "frozen", null, null, LAST, 1L)))
        .isInstanceOf(UnexpectedResponseException.class).hasMessageContaining("frozen");
    String tooShort = CellBuilder.beginCell().storeUint(BigInteger.valueOf(7), 32).endCell().toBase64();
    assertThatThrownBy(() -> TonApiClient.snapshotOf(WALLET,
        new AddressInfo(0, "active", "code", tooShort, LAST, 1L)))
        .isInstanceOf(UnexpectedResponseException.class).hasMessageContaining("not a WalletV4R2 data cell");
    assertThatThrownBy(() -> TonApiClient.snapshotOf(WALLET,
        new AddressInfo(0, "active", "code", "not a boc", LAST, 1L)))
        .isInstanceOf(UnexpectedResponseException.class);
  }

  @Test
  void shouldRecognizeABouncedBodyOnlyByItsPrefix() {
    String bounced = CellBuilder.beginCell().storeUint(BigInteger.valueOf(0xFFFF_FFFFL), 32)
        .storeUint(BigInteger.ZERO, 32).endCell().toBase64();
    String comment = CellBuilder.beginCell().storeUint(BigInteger.ZERO, 32).storeString("hi").endCell().toBase64();
    TonAddress from = TonAddress.of(0, new byte[] {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19,
        20, 21, 22, 23, 24, 25, 26, 27, 28, 29, 30, 31, 32});

    assertThat(message(from, bounced).isBounce()).isTrue();
    assertThat(message(from, comment).isBounce()).isFalse();
    assertThat(message(null, bounced).isBounce()).as("external messages never bounce").isFalse();
    assertThat(message(from, null).isBounce()).isFalse();
  }

  private static ChainMessage message(TonAddress source, String body) {
    return new ChainMessage(null, source, WALLET, 1_000, 0, 0, 1, null, null, body, null);
  }
}
