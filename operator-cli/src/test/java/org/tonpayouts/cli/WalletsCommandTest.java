package org.tonpayouts.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.tonpayouts.ton.address.ParsedAddress;
import org.tonpayouts.ton.address.TonAddress;
import org.tonpayouts.ton.keys.SecretFiles;
import org.tonpayouts.ton.keys.WalletKey;
import org.tonpayouts.ton.wallet.Subwallets;
import picocli.CommandLine;

class WalletsCommandTest {
  /** A test-only seed; never a real wallet's. */
  private static final String SEED = "7a1b2c3d4e5f60718293a4b5c6d7e8f90a1b2c3d4e5f60718293a4b5c6d7e8f9";

  @TempDir
  Path tmp;

  private final StringWriter out = new StringWriter();
  private final StringWriter err = new StringWriter();

  private int run(String... args) {
    CommandLine cmd = PayoutsCli.commandLine();
    cmd.setOut(new PrintWriter(out, true));
    cmd.setErr(new PrintWriter(err, true));
    return cmd.execute(args);
  }

  @Test
  void shouldPrintEachSubwalletsIdRawAndUserFriendlyAddresses() throws Exception {
    Path secret = tmp.resolve("seed.txt");
    SecretFiles.writeOwnerOnly(secret, SEED + "\n");

    int exit = run("wallets", "--from", "698983191", "--count", "3", "--testnet", "--wallet-secret-file",
        secret.toString());

    assertThat(exit).as(err.toString()).isZero();
    Subwallets subwallets = new Subwallets(WalletKey.fromSeedHex(SEED), 0);
    List<String> rows = out.toString().lines().filter(l -> !l.startsWith("#") && !l.startsWith("subwallet_id")).toList();
    assertThat(rows).hasSize(3);
    for (int i = 0; i < 3; i++) {
      String[] columns = rows.get(i).split("\t");
      long id = 698983191L + i;
      TonAddress expected = subwallets.address(id);
      assertThat(columns[0]).isEqualTo(Long.toString(id));
      assertThat(columns[1]).isEqualTo(expected.toRaw());
      ParsedAddress nonBounceable = TonAddress.parseWithFlags(columns[2]);
      assertThat(nonBounceable.address()).isEqualTo(expected);
      assertThat(nonBounceable.bounceable()).isFalse();
      assertThat(nonBounceable.testnet()).isTrue();
      assertThat(TonAddress.parseWithFlags(columns[3]).bounceable()).isTrue();
    }
    assertThat(out.toString()).doesNotContain(SEED);
  }

  @Test
  void shouldRefuseAKeyFileThatHoldsNoKeyWithoutQuotingIt() throws Exception {
    Path secret = tmp.resolve("seed.txt");
    SecretFiles.writeOwnerOnly(secret, "not-a-key-at-all");

    int exit = run("wallets", "--count", "1", "--wallet-secret-file", secret.toString());

    assertThat(exit).isEqualTo(2);
    assertThat(err.toString()).contains("wallet secret file").doesNotContain("not-a-key-at-all");
  }

  @Test
  void shouldRefuseAKeyFileOthersMayReadNamingTheFix() throws Exception {
    Path secret = Files.writeString(tmp.resolve("seed.txt"), SEED);
    Files.setPosixFilePermissions(secret, PosixFilePermissions.fromString("rw-r--r--"));

    int exit = run("wallets", "--count", "1", "--wallet-secret-file", secret.toString());

    assertThat(exit).isEqualTo(2);
    assertThat(err.toString()).contains("wallet secret file '" + secret + "' may be read or written by group or others")
        .contains("chmod 600 " + secret).doesNotContain(SEED);
    assertThat(out.toString()).doesNotContain("698983191");
  }
}
