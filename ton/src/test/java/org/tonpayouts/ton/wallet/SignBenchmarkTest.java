package org.tonpayouts.ton.wallet;

import static org.assertj.core.api.Assertions.assertThat;

import com.iwebpp.crypto.TweetNaclFast;
import java.time.Instant;
import java.util.HexFormat;
import java.util.List;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.tonpayouts.ton.address.TonAddress;
import org.tonpayouts.ton.keys.WalletKey;

/**
 * Prints what signing costs per transfer: the whole signer (cells, hashes, BOC) and the bare
 * Ed25519 step, BouncyCastle against the TweetNaCl copy inside ton4j.
 * Run with {@code mvn -pl ton test -Dtest=SignBenchmarkTest -Dgroups=benchmark -DexcludedGroups=}.
 */
@Tag("benchmark")
class SignBenchmarkTest {
  static final int WARMUP = 10_000;
  static final int ROUNDS = 10_000;

  @Test
  void signTimePerTransfer() {
    String seedHex = Vectors.key("seed").seedHex();
    WalletKey key = WalletKey.fromSeedHex(seedHex);
    TransferSigner signer = new TransferSigner(new Subwallets(key, 0));
    List<TransferOrder> orders = List.of(
        new TransferOrder(TonAddress.parse("0:" + "11".repeat(32)), 1_000_000_000L, "payout 42", false),
        new TransferOrder(TonAddress.parse("0:" + "22".repeat(32)), 10_000_000L, null, false));
    TweetNaclFast.Signature.KeyPair pair = TweetNaclFast.Signature.keyPair_fromSeed(HexFormat.of().parseHex(seedHex));
    TweetNaclFast.Signature nacl = new TweetNaclFast.Signature(pair.getPublicKey(), pair.getSecretKey());
    byte[] hash = new byte[32];

    double full = perOpMicros(i -> signer.sign(1, i, Instant.ofEpochSecond(1_767_225_600L), orders).messageHash().length());
    double bc = perOpMicros(i -> { hash[0] = (byte) i; return key.sign(hash).length; });
    double tweet = perOpMicros(i -> { hash[0] = (byte) i; return nacl.detached(hash).length; });
    byte[] sig = key.sign(hash);
    double bcVerify = perOpMicros(i -> WalletKey.verify(key.publicKey(), hash, sig) ? 1 : 0);

    System.out.printf("sign benchmark: full TransferSigner.sign (2 orders) %.1f us/transfer;"
        + " Ed25519 sign BouncyCastle %.1f us, TweetNaCl %.1f us (%.1fx); BouncyCastle verify %.1f us%n",
        full, bc, tweet, tweet / bc, bcVerify);
    assertThat(bc).isLessThan(tweet);
  }

  interface Op {
    int run(int i);
  }

  private static double perOpMicros(Op op) {
    long sink = 0;
    for (int i = 0; i < WARMUP; i++) {
      sink += op.run(i);
    }
    long start = System.nanoTime();
    for (int i = 0; i < ROUNDS; i++) {
      sink += op.run(i);
    }
    long elapsed = System.nanoTime() - start;
    assertThat(sink).isPositive();
    return elapsed / 1_000.0 / ROUNDS;
  }
}
