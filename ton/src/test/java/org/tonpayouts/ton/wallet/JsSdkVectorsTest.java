package org.tonpayouts.ton.wallet;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Instant;
import java.util.HexFormat;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.ton.ton4j.cell.Cell;
import org.tonpayouts.ton.address.TonAddress;
import org.tonpayouts.ton.cell.TonCell;
import org.tonpayouts.ton.keys.WalletKey;

/** Our keys, subwallet addresses, StateInits and signed messages equal the JS SDK's, byte for byte. */
class JsSdkVectorsTest {

  static WalletKey key(String name) {
    return WalletKey.fromSeedHex(Vectors.key(name).seedHex());
  }

  @Test
  void shouldDeriveTheSdkKeysFromSeedAndMnemonic() {
    Vectors.Key seed = Vectors.key("seed");
    assertThat(WalletKey.fromSeedHex(seed.seedHex()).publicKeyHex()).isEqualTo(seed.publicKey());

    Vectors.Key mnemonic = Vectors.key("mnemonic");
    WalletKey fromWords = WalletKey.fromMnemonic(mnemonic.mnemonic());
    assertThat(fromWords.publicKeyHex()).isEqualTo(mnemonic.publicKey());
    assertThat(fromWords).isEqualTo(WalletKey.fromSeedHex(mnemonic.seedHex()));
  }

  @Test
  void shouldUseTheSdkWalletCode() {
    assertThat(Subwallets.code().hashHex()).isEqualTo(Vectors.root().walletCodeHash());
  }

  @Test
  void sdkDefaultSubwalletIdIsOursOnBasechain() {
    assertThat(Vectors.root().defaultSubwalletIds())
        .contains(new Vectors.Default(0, Subwallets.DEFAULT_SUBWALLET_ID));
  }

  static List<Vectors.AddressVector> addresses() {
    return Vectors.addresses();
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("addresses")
  void shouldDeriveTheSdkAddressAndStateInit(Vectors.AddressVector v) {
    Subwallets subwallets = new Subwallets(key(v.key()), v.workchain());

    TonAddress address = subwallets.address(v.subwalletId());

    assertThat(address.toRaw()).isEqualTo(v.raw());
    assertThat(address.toFriendly(true, false)).isEqualTo(v.bounceable());
    assertThat(address.toFriendly(false, false)).isEqualTo(v.nonBounceable());
    assertThat(address.toFriendly(true, true)).isEqualTo(v.testnetBounceable());
    assertThat(address.toFriendly(false, true)).isEqualTo(v.testnetNonBounceable());
    assertThat(subwallets.stateInit(v.subwalletId()).hashHex()).isEqualTo(v.stateInitHash());
    assertThat(subwallets.stateInit(v.subwalletId()).toBase64()).isEqualTo(v.stateInitBoc());
  }

  static List<Vectors.TransferVector> transfers() {
    return Vectors.transfers();
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("transfers")
  void shouldSignTheSdkMessageByteForByte(Vectors.TransferVector v) {
    TransferSigner signer = new TransferSigner(new Subwallets(key(v.key()), v.workchain()));

    SignedTransfer signed = signer.sign(v.subwalletId(), v.seqno(), Instant.ofEpochSecond(v.validUntil()), orders(v));

    assertThat(signed.wallet().toRaw()).isEqualTo(v.wallet());
    assertThat(signed.messageHash()).isEqualTo(v.messageHash());
    assertThat(signed.boc()).isEqualTo(v.boc());
    assertSameTreeForTon4j(signed.boc(), v.boc());
    assertThat(signed.normalizedHash()).isEqualTo(v.normalizedHash());
    assertThat(signed.subwalletId()).isEqualTo(v.subwalletId());
    assertThat(signed.seqno()).isEqualTo(v.seqno());
    assertThat(signed.validUntil()).isEqualTo(v.validUntil());
    assertThat(signed.orders()).isEqualTo(orders(v));
  }

  /**
   * ton4j, a third implementation, reads our BOC as the same tree as the JS SDK's: it writes cells
   * breadth-first where @ton/core (and we) write them depth-first, so both are re-serialized by it.
   */
  static void assertSameTreeForTon4j(String ours, String js) {
    Cell ton4jOurs = Cell.fromBocBase64(ours);
    assertThat(ton4jOurs.toBase64()).isEqualTo(Cell.fromBocBase64(js).toBase64());
    assertThat(HexFormat.of().formatHex(ton4jOurs.getHash())).isEqualTo(TonCell.fromBase64(ours).hashHex());
  }

  static List<TransferOrder> orders(Vectors.TransferVector v) {
    return v.orders().stream()
        .map(o -> new TransferOrder(TonAddress.parse(o.destination()), Long.parseLong(o.amountNano()), o.comment(), o.bounce()))
        .toList();
  }
}
