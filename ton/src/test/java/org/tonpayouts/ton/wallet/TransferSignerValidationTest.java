package org.tonpayouts.ton.wallet;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Instant;
import java.util.Collections;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.tonpayouts.ton.address.TonAddress;
import org.tonpayouts.ton.keys.WalletKey;

/** The signer refuses what the wallet contract would reject or misread, before anything is signed. */
class TransferSignerValidationTest {
  static final WalletKey KEY = WalletKey.fromSeedHex(Vectors.key("seed").seedHex());
  static final Subwallets SUBWALLETS = new Subwallets(KEY, 0);
  static final TransferSigner SIGNER = new TransferSigner(SUBWALLETS);
  static final Instant UNTIL = Instant.parse("2026-01-01T00:00:00Z");
  static final TransferOrder ORDER = new TransferOrder(TonAddress.parse("0:" + "11".repeat(32)), 1, null, true);

  @Test
  void oneToFourOrders() {
    assertThatThrownBy(() -> SIGNER.sign(1, 1, UNTIL, List.of()))
        .isInstanceOf(IllegalArgumentException.class).hasMessage("a WalletV4R2 message carries 1 to 4 orders, got 0");
    assertThatThrownBy(() -> SIGNER.sign(1, 1, UNTIL, Collections.nCopies(5, ORDER)))
        .isInstanceOf(IllegalArgumentException.class).hasMessage("a WalletV4R2 message carries 1 to 4 orders, got 5");
    assertThat(SIGNER.sign(1, 1, UNTIL, Collections.nCopies(4, ORDER)).orders()).hasSize(4);
  }

  @Test
  void uint32Fields() {
    assertThatThrownBy(() -> SIGNER.sign(-1, 1, UNTIL, List.of(ORDER)))
        .hasMessage("subwallet id -1 is outside uint32 (0..4294967295)");
    assertThatThrownBy(() -> SIGNER.sign(1L << 32, 1, UNTIL, List.of(ORDER)))
        .hasMessage("subwallet id 4294967296 is outside uint32 (0..4294967295)");
    assertThatThrownBy(() -> SIGNER.sign(1, 1L << 32, UNTIL, List.of(ORDER)))
        .hasMessage("seqno 4294967296 is outside uint32");
    assertThatThrownBy(() -> SIGNER.sign(1, -1, UNTIL, List.of(ORDER)))
        .hasMessage("seqno -1 is outside uint32");
    assertThatThrownBy(() -> SUBWALLETS.address(-5)).isInstanceOf(IllegalArgumentException.class)
        .hasMessage("subwallet id -5 is outside uint32 (0..4294967295)");
    assertThatThrownBy(() -> SUBWALLETS.stateInit(1L << 32)).isInstanceOf(IllegalArgumentException.class);
  }

  @Test
  void validUntilMustBeARealUint32Time() {
    // 0 is not "forever": ton4j would turn it into now+60 and the contract would reject it as expired.
    assertThatThrownBy(() -> SIGNER.sign(1, 1, Instant.EPOCH, List.of(ORDER)))
        .hasMessageContaining("outside 1..2^32-1 unix seconds");
    assertThatThrownBy(() -> SIGNER.sign(1, 1, Instant.ofEpochSecond(1L << 32), List.of(ORDER)))
        .hasMessageContaining("outside 1..2^32-1 unix seconds");
    assertThatThrownBy(() -> SIGNER.sign(1, 1, null, List.of(ORDER))).isInstanceOf(NullPointerException.class);
    // Sub-second parts are cut, never rounded up past what the caller asked for.
    assertThat(SIGNER.sign(1, 1, UNTIL.plusMillis(999), List.of(ORDER)).validUntil()).isEqualTo(UNTIL.getEpochSecond());
  }

  @Test
  void ordersAreValidated() {
    assertThatThrownBy(() -> new TransferOrder(null, 1, null, true)).isInstanceOf(NullPointerException.class)
        .hasMessage("destination");
    assertThatThrownBy(() -> new TransferOrder(ORDER.destination(), 0, null, true))
        .isInstanceOf(IllegalArgumentException.class).hasMessage("amount must be positive nanotons, got 0");
    assertThatThrownBy(() -> new TransferOrder(ORDER.destination(), -5, null, true))
        .hasMessage("amount must be positive nanotons, got -5");
  }

  @Test
  void workchainIsValidated() {
    assertThatThrownBy(() -> new Subwallets(KEY, 1)).hasMessage("workchain 1 is not supported (only 0 and -1 exist)");
    assertThat(new Subwallets(KEY, -1).address(0).workchain()).isEqualTo(-1);
  }

  @Test
  void signingIsDeterministicAndSubwalletsDiffer() {
    SignedTransfer a = SIGNER.sign(1, 3, UNTIL, List.of(ORDER));
    SignedTransfer b = SIGNER.sign(1, 3, UNTIL, List.of(ORDER));
    SignedTransfer otherWallet = SIGNER.sign(2, 3, UNTIL, List.of(ORDER));

    assertThat(b).isEqualTo(a);
    assertThat(otherWallet.wallet()).isNotEqualTo(a.wallet());
    assertThat(otherWallet.messageHash()).isNotEqualTo(a.messageHash());
    assertThat(a.messageHash()).matches("[0-9a-f]{64}");
    assertThat(a.normalizedHash()).matches("[0-9a-f]{64}").isNotEqualTo(a.messageHash());
    assertThat(a.toString()).doesNotContain(a.boc()).contains("seqno=3", "hash=" + a.messageHash());
  }

  @Test
  void signedTransferOrdersAreImmutable() {
    List<TransferOrder> orders = new java.util.ArrayList<>(List.of(ORDER));
    SignedTransfer signed = SIGNER.sign(1, 3, UNTIL, orders);
    orders.add(ORDER);
    assertThat(signed.orders()).hasSize(1);
    assertThatThrownBy(() -> signed.orders().add(ORDER)).isInstanceOf(UnsupportedOperationException.class);
  }
}
