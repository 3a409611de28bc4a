package org.tonpayouts.streams.admin;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.HexFormat;
import org.junit.jupiter.api.Test;
import org.tonpayouts.runtime.admin.OperatorTokens;

/**
 * admin.operators.file as operators write it: comments and blank lines pass; every malformed line,
 * second name, shared token or weak digest refuses the whole file, naming the line.
 */
class OperatorsFileTest {
  private static final String ALICE_TOKEN = OperatorTokens.newToken();
  private static final String BOB_TOKEN = OperatorTokens.newToken();

  @Test
  void shouldFindEachOperatorByTheirTokenIgnoringCommentsAndBlankLines() {
    OperatorsFile file = OperatorsFile.parse("ops", "# on-call rota, INC desk\n\n"
        + OperatorTokens.line("alice", ALICE_TOKEN) + "   # since 2026-03\n"
        + "  " + OperatorTokens.line("bob.smith@ops", BOB_TOKEN).toUpperCase().replace("BOB.SMITH@OPS", "bob.smith@ops")
        + "\n");

    assertThat(file.names()).containsExactly("alice", "bob.smith@ops");
    assertThat(file.operatorWith(OperatorTokens.sha256(ALICE_TOKEN))).contains("alice");
    assertThat(file.operatorWith(OperatorTokens.sha256(BOB_TOKEN))).contains("bob.smith@ops");
    assertThat(file.operatorWith(OperatorTokens.sha256(ALICE_TOKEN + "x"))).isEmpty();
  }

  @Test
  void shouldRefuseAMalformedLineNamingIt() {
    String text = OperatorTokens.line("alice", ALICE_TOKEN) + "\nbob\n";

    assertThatThrownBy(() -> OperatorsFile.parse("ops.txt", text)).isInstanceOf(IllegalArgumentException.class)
        .hasMessage("ops.txt line 2: expected '<name> sha256:<64 hex digits>', got 1 field(s)");
  }

  @Test
  void shouldRefuseANameWithSpacesOrBrackets() {
    assertThatThrownBy(() -> OperatorsFile.parse("ops", "(shared) sha256:" + "ab".repeat(32)))
        .hasMessageStartingWith("ops line 1: an operator name is 1 to 64 characters");
  }

  @Test
  void shouldRefuseAnOperatorNamedTwice() {
    String text = OperatorTokens.line("alice", ALICE_TOKEN) + "\n# rotated\n" + OperatorTokens.line("alice", BOB_TOKEN);

    assertThatThrownBy(() -> OperatorsFile.parse("ops", text))
        .hasMessage("ops line 3: operator 'alice' is named again (first on line 1): one line per operator");
  }

  @Test
  void shouldRefuseTwoOperatorsSharingAToken() {
    String text = OperatorTokens.line("alice", ALICE_TOKEN) + "\n" + OperatorTokens.line("bob", ALICE_TOKEN);

    assertThatThrownBy(() -> OperatorsFile.parse("ops", text))
        .hasMessageStartingWith("ops line 2: operator 'bob' has the same token as 'alice'");
  }

  @Test
  void shouldRefuseAWeakOrShortDigest() {
    assertThatThrownBy(() -> OperatorsFile.parse("ops", "alice md5:" + "ab".repeat(16)))
        .hasMessageStartingWith("ops line 1: the token digest must be sha256:<64 hex digits>, not md5:...");
    assertThatThrownBy(() -> OperatorsFile.parse("ops", "alice " + "ab".repeat(32)))
        .hasMessageStartingWith("ops line 1: the token digest must be sha256:");
    assertThatThrownBy(() -> OperatorsFile.parse("ops", "alice sha256:" + "ab".repeat(20)))
        .hasMessage("ops line 1: the SHA-256 digest must be 64 hex digits, got 40 character(s)");
    String empty = HexFormat.of().formatHex(OperatorTokens.sha256(""));
    assertThatThrownBy(() -> OperatorsFile.parse("ops", "alice sha256:" + empty))
        .hasMessageStartingWith("ops line 1: that is the digest of an empty token");
  }

  @Test
  void shouldRefuseAFileThatNamesNobody() {
    assertThatThrownBy(() -> OperatorsFile.parse("ops", "# everyone left\n\n"))
        .hasMessage("ops names no operator: nobody could call the admin API");
  }
}
