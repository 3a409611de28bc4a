package org.tonpayouts.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.sun.net.httpserver.HttpServer;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.tonpayouts.ton.keys.SecretFiles;
import picocli.CommandLine;

/**
 * {@code payouts admin} against a stand-in of the admin API that records what it was sent: the
 * token from the environment or a file goes into the Authorization header, ids are encoded into
 * the path, a resolution is posted as JSON, and a refusal exits 1 with the API's reason. (The real
 * API is exercised end to end in the local launcher's {@code UpCommandTest}.)
 */
class AdminCommandTest {
  private static final String TOKEN = "cli-test-token-0123456789abcdef";

  @TempDir
  Path tmp;

  private HttpServer server;
  private final List<String> seen = new CopyOnWriteArrayList<>();
  private volatile int status = 200;
  private volatile String answer = "{\"ok\":true}";

  @BeforeEach
  void serve() throws Exception {
    server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 4);
    server.createContext("/", exchange -> {
      String body = new String(exchange.getRequestBody().readAllBytes(), StandardCharsets.UTF_8);
      seen.add(exchange.getRequestMethod() + " " + exchange.getRequestURI().getRawPath()
          + (exchange.getRequestURI().getRawQuery() == null ? "" : "?" + exchange.getRequestURI().getRawQuery())
          + " auth=" + exchange.getRequestHeaders().getFirst("Authorization") + " body=" + body);
      byte[] bytes = answer.getBytes(StandardCharsets.UTF_8);
      exchange.sendResponseHeaders(status, bytes.length);
      exchange.getResponseBody().write(bytes);
      exchange.close();
    });
    server.start();
  }

  @AfterEach
  void stop() {
    server.stop(0);
  }

  private record Run(int exit, String out, String err) {}

  private Run run(Map<String, String> env, String... args) {
    CommandLine cmd = PayoutsCli.commandLine();
    AdminCommand admin = cmd.getSubcommands().get("admin").getCommand();
    admin.env = env;
    StringWriter out = new StringWriter();
    StringWriter err = new StringWriter();
    cmd.setOut(new PrintWriter(out, true));
    cmd.setErr(new PrintWriter(err, true));
    String[] all = new String[args.length + 3];
    all[0] = "admin";
    all[1] = "--url";
    all[2] = "http://127.0.0.1:" + server.getAddress().getPort();
    System.arraycopy(args, 0, all, 3, args.length);
    return new Run(cmd.execute(all), out.toString(), err.toString());
  }

  @Test
  void shouldSendTheTokenFromTheEnvironmentAndEncodeIds() {
    Run r = run(Map.of("PAYOUTS_ADMIN_TOKEN", TOKEN), "request", "escrow-8841:release");

    assertThat(r.exit()).as(r.err()).isZero();
    assertThat(r.out()).contains("\"ok\" : true");
    assertThat(seen).containsExactly("GET /admin/requests/escrow-8841%3Arelease auth=Bearer " + TOKEN + " body=");
  }

  @Test
  void shouldPostAResolutionWithTheTokenFromAFile() throws Exception {
    Path file = tmp.resolve("token");
    SecretFiles.writeOwnerOnly(file, TOKEN + "\n");

    Run r = run(Map.of(), "--token-file", file.toString(), "resolve", "settled", "r-1", "t", "--tx", "ab".repeat(32),
        "--lt", "42", "--operator", "alice", "--reason", "OPS-17");

    assertThat(r.exit()).as(r.err()).isZero();
    assertThat(seen).containsExactly("POST /admin/reconciliations/r-1/t/resolve auth=Bearer " + TOKEN
        + " body={\"outcome\":\"SETTLED\",\"txHash\":\"" + "ab".repeat(32)
        + "\",\"lt\":42,\"operator\":\"alice\",\"reason\":\"OPS-17\"}");
  }

  @Test
  void shouldRefuseATokenFileOthersMayReadNamingTheFixAndSendNothing() throws Exception {
    Path file = Files.writeString(tmp.resolve("token"), TOKEN + "\n");
    Files.setPosixFilePermissions(file, java.nio.file.attribute.PosixFilePermissions.fromString("rw-r--r--"));

    Run r = run(Map.of(), "--token-file", file.toString(), "request", "r-1");

    assertThat(r.exit()).isEqualTo(2);
    assertThat(r.err()).contains("admin token file '" + file + "' may be read or written by group or others")
        .contains("chmod 600 " + file).doesNotContain(TOKEN);
    assertThat(seen).isEmpty();
  }

  @Test
  void shouldExitOneWithTheApisReasonWhenRefused() {
    status = 422;
    answer = "{\"status\":422,\"error\":\"not settled: transaction x does not pay 5 nanotons to y\"}";

    Run r = run(Map.of("PAYOUTS_ADMIN_TOKEN", TOKEN), "resolve", "failed", "r-1", "t", "--operator", "bob",
        "--reason", "not paid");

    assertThat(r.exit()).isEqualTo(1);
    assertThat(r.err()).contains("HTTP 422: not settled: transaction x does not pay 5 nanotons to y");
    assertThat(seen).singleElement().asString().contains("\"outcome\":\"FAILED\"");
  }

  @Test
  void shouldPostAFailedResolutionWithItsAcknowledgementAndPrintWhatEvidenceIsMissing() {
    status = 409;
    answer = "{\"status\":409,\"error\":\"not resolved FAILED: transaction " + "cd".repeat(32) + " pays 5 nanotons"
        + " to y: the transfer may have been paid\"}";

    Run r = run(Map.of("PAYOUTS_ADMIN_TOKEN", TOKEN), "resolve", "failed", "r-1", "t", "--operator", "bob",
        "--reason", "it pays the March refund", "--acknowledge-pays-something-else", "ab".repeat(32));

    assertThat(r.exit()).isEqualTo(1);
    assertThat(r.err()).contains("HTTP 409: not resolved FAILED: transaction " + "cd".repeat(32) + " pays 5 nanotons");
    assertThat(seen).containsExactly("POST /admin/reconciliations/r-1/t/resolve auth=Bearer " + TOKEN
        + " body={\"outcome\":\"FAILED\",\"acknowledgePaysSomethingElse\":\"" + "ab".repeat(32)
        + "\",\"operator\":\"bob\",\"reason\":\"it pays the March refund\"}");
  }

  @Test
  void shouldRefuseToCallWithoutAToken() {
    Run r = run(Map.of(), "reconciliation", "list", "--limit", "5");

    assertThat(r.exit()).isEqualTo(2);
    assertThat(r.err()).contains("no admin token: set PAYOUTS_ADMIN_TOKEN or give --token-file");
    assertThat(seen).isEmpty();
  }

  @Test
  void shouldPauseAndResumeOneSubwalletOrTheDeploymentWithWhoAndWhy() {
    Map<String, String> env = Map.of("PAYOUTS_ADMIN_TOKEN", TOKEN);

    assertThat(run(env, "pause", "--subwallet", "698983191", "--operator", "alice", "--reason", "INC-4").exit()).isZero();
    assertThat(run(env, "resume", "--deployment", "--operator", "bob", "--reason", "INC-4 closed").exit()).isZero();
    assertThat(run(env, "pauses").exit()).isZero();

    assertThat(seen).containsExactly(
        "POST /admin/pause auth=Bearer " + TOKEN + " body={\"scope\":\"698983191\",\"operator\":\"alice\","
            + "\"reason\":\"INC-4\"}",
        "POST /admin/resume auth=Bearer " + TOKEN + " body={\"scope\":\"deployment\",\"operator\":\"bob\","
            + "\"reason\":\"INC-4 closed\"}",
        "GET /admin/pauses auth=Bearer " + TOKEN + " body=");
  }

  @Test
  void shouldRefuseAPauseWithoutExactlyOneScopeAndSendNothing() {
    Map<String, String> env = Map.of("PAYOUTS_ADMIN_TOKEN", TOKEN);

    Run none = run(env, "pause", "--operator", "alice", "--reason", "INC-4");
    Run both = run(env, "resume", "--deployment", "--subwallet", "7", "--operator", "alice", "--reason", "INC-4");

    assertThat(none.exit()).isEqualTo(2);
    assertThat(none.err()).contains("--deployment").contains("--subwallet");
    assertThat(both.exit()).isEqualTo(2);
    assertThat(both.err()).contains("mutually exclusive");
    assertThat(seen).isEmpty();
  }

  @Test
  void shouldListApproveAndRejectApprovalsAsTheOperatorTheTokenNames() {
    Map<String, String> env = Map.of("PAYOUTS_ADMIN_TOKEN", TOKEN);

    assertThat(run(env, "approvals", "list").exit()).isZero();
    assertThat(run(env, "approvals", "approve", "7").exit()).isZero();
    assertThat(run(env, "approvals", "reject", "8", "--reason", "wrong transaction").exit()).isZero();
    assertThat(run(env, "pause", "--deployment", "--reason", "INC-5").exit()).isZero();

    assertThat(seen).containsExactly(
        "GET /admin/approvals auth=Bearer " + TOKEN + " body=",
        "POST /admin/approvals/7/approve auth=Bearer " + TOKEN + " body={}",
        "POST /admin/approvals/8/reject auth=Bearer " + TOKEN + " body={\"reason\":\"wrong transaction\"}",
        "POST /admin/pause auth=Bearer " + TOKEN + " body={\"scope\":\"deployment\",\"reason\":\"INC-5\"}");
  }

  @Test
  void shouldMakeAFreshOperatorTokenAndItsLineWithoutCallingTheApi() {
    Run first = run(Map.of(), "operator-token", "--name", "alice");
    Run second = run(Map.of(), "operator-token", "--name", "alice");
    Run badName = run(Map.of(), "operator-token", "--name", "alice smith");

    assertThat(first.exit()).isZero();
    String token = first.out().lines().filter(l -> l.startsWith("token: ")).findFirst().orElseThrow().substring(7);
    assertThat(token).matches("[0-9a-f]{64}");
    assertThat(first.out()).contains("line for admin.operators.file: "
        + org.tonpayouts.runtime.admin.OperatorTokens.line("alice", token));
    assertThat(second.out()).doesNotContain(token);
    assertThat(badName.exit()).isEqualTo(2);
    assertThat(badName.err()).contains("an operator name is 1 to 64 characters");
    assertThat(seen).isEmpty();
  }

  @Test
  void shouldListTheSpendCapHoldsAndReleaseOneWithWhoAndWhy() {
    Map<String, String> env = Map.of("PAYOUTS_ADMIN_TOKEN", TOKEN);

    assertThat(run(env, "holds", "list", "--limit", "20").exit()).isZero();
    assertThat(run(env, "holds", "release", "deal 9", "t-0", "--operator", "alice", "--reason", "INC-5 approved")
        .exit()).isZero();
    Run withoutReason = run(env, "holds", "release", "deal-9", "t-0", "--operator", "alice");

    assertThat(withoutReason.exit()).isEqualTo(2);
    assertThat(withoutReason.err()).contains("--reason");
    assertThat(seen).containsExactly(
        "GET /admin/holds?limit=20 auth=Bearer " + TOKEN + " body=",
        "POST /admin/holds/deal%209/t-0/release auth=Bearer " + TOKEN + " body={\"operator\":\"alice\","
            + "\"reason\":\"INC-5 approved\"}");
  }
}
