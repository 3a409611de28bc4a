package org.tonpayouts.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import java.io.IOException;
import java.io.PrintWriter;
import java.net.URI;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.Callable;
import org.tonpayouts.runtime.PayoutsConfig;
import org.tonpayouts.ton.keys.SecretFiles;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.ParentCommand;
import picocli.CommandLine.Spec;
import picocli.CommandLine;

/**
 * {@code payouts admin ...}: streams-app's admin API from the command line (docs/operations.md: Admin API and
 * the reconciliation runbook). Prints the API's JSON answer; exit 0 on success, 1 when the API
 * refused (its reason on stderr), 2 on bad usage or no answer.
 */
@Command(name = "admin", mixinStandardHelpOptions = true,
    description = {"Talks to streams-app's admin API: a request's lifecycle, a wallet, the transfers waiting for a"
        + " reconciliation, and their resolution; the pause switch (pause, resume, pauses).",
        "The token (your own operator token, or the shared admin token) comes from PAYOUTS_ADMIN_TOKEN, or the file"
            + " given by --token-file or PAYOUTS_ADMIN_TOKEN_FILE."},
    subcommands = {AdminCommand.Request.class, AdminCommand.Wallet.class, AdminCommand.Reconciliation.class,
        AdminCommand.Resolve.class, AdminPauseCommands.Pause.class, AdminPauseCommands.Resume.class,
        AdminPauseCommands.Pauses.class, AdminOperatorCommands.Approvals.class,
        AdminOperatorCommands.OperatorToken.class, AdminHoldCommands.Holds.class})
public final class AdminCommand {
  static final String URL_ENV = "PAYOUTS_ADMIN_URL";
  static final String DEFAULT_URL = "http://localhost:8090";
  /** Prints answers readably. */
  private static final ObjectMapper JSON = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);
  /** Writes request bodies. */
  private static final ObjectMapper COMPACT = new ObjectMapper();

  @Spec
  CommandSpec spec;

  @Option(names = "--url", description = "Base URL of streams-app's admin API (default: $" + URL_ENV + " or "
      + DEFAULT_URL + ").")
  URI url;

  @Option(names = "--token-file", description = "File holding the admin token (default: $"
      + "PAYOUTS_ADMIN_TOKEN, else the file in $PAYOUTS_ADMIN_TOKEN_FILE).")
  Path tokenFile;

  /** The environment the token and URL are read from (tests replace it). */
  Map<String, String> env = System.getenv();

  AdminClient client() {
    URI base = url != null ? url : URI.create(env.getOrDefault(URL_ENV, DEFAULT_URL));
    return new AdminClient(base, token());
  }

  private String token() {
    String tokenEnv = PayoutsConfig.envName(PayoutsConfig.ADMIN_TOKEN_CONFIG);
    String fileEnv = PayoutsConfig.envName(PayoutsConfig.ADMIN_TOKEN_FILE_CONFIG);
    Path file = tokenFile != null ? tokenFile : env.containsKey(fileEnv) ? Path.of(env.get(fileEnv)) : null;
    if (file == null) {
      String token = env.get(tokenEnv);
      if (token == null || token.isBlank()) {
        throw new CommandLine.ParameterException(spec.commandLine(), "no admin token: set " + tokenEnv
            + " or give --token-file (or " + fileEnv + ")");
      }
      return token.strip();
    }
    try {
      return SecretFiles.read("admin token file", file);
    } catch (IllegalArgumentException e) {
      throw new CommandLine.ParameterException(spec.commandLine(), e.getMessage());
    }
  }

  /** Prints the answer (pretty JSON) and gives the exit code. */
  static int print(CommandSpec spec, AdminClient.Answer answer) {
    PrintWriter out = spec.commandLine().getOut();
    PrintWriter err = spec.commandLine().getErr();
    String body = pretty(answer.body());
    if (answer.ok()) {
      out.println(body);
      out.flush();
      return 0;
    }
    err.println("payouts admin: HTTP " + answer.status() + ": " + errorOf(answer.body()));
    err.println(body);
    err.flush();
    return 1;
  }

  private static String pretty(String body) {
    try {
      return JSON.writeValueAsString(JSON.readTree(body));
    } catch (IOException e) {
      return body;
    }
  }

  private static String errorOf(String body) {
    try {
      JsonNode node = JSON.readTree(body);
      return node.hasNonNull("error") ? node.get("error").asText() : "(no reason given)";
    } catch (IOException e) {
      return "(no JSON answer)";
    }
  }

  @Command(name = "request", mixinStandardHelpOptions = true,
      description = "A request's lifecycle: every transfer's attempts (seqno, hashes, valid_until, status), outcome,"
          + " resolution settlements and audit events.")
  static final class Request implements Callable<Integer> {
    @ParentCommand
    AdminCommand admin;
    @Spec
    CommandSpec spec;
    @Parameters(index = "0", paramLabel = "REQUEST_ID")
    String requestId;

    @Override
    public Integer call() throws Exception {
      return print(spec, admin.client().get("/admin/requests/" + AdminClient.segment(requestId)));
    }
  }

  @Command(name = "wallet", mixinStandardHelpOptions = true,
      description = "A wallet: queue depth, the transfer in flight, last applied seqno, balance and seqno on chain.")
  static final class Wallet implements Callable<Integer> {
    @ParentCommand
    AdminCommand admin;
    @Spec
    CommandSpec spec;
    @Parameters(index = "0", paramLabel = "SUBWALLET_ID")
    long subwalletId;

    @Override
    public Integer call() throws Exception {
      return print(spec, admin.client().get("/admin/wallets/" + subwalletId));
    }
  }

  @Command(name = "reconciliation", mixinStandardHelpOptions = true, subcommands = Reconciliation.List.class,
      description = "Transfers whose outcome an operator must decide.")
  static final class Reconciliation {
    @ParentCommand
    AdminCommand admin;

    @Command(name = "list", mixinStandardHelpOptions = true,
        description = "Transfers in RECONCILIATION_REQUIRED, oldest first, with their evidence.")
    static final class List implements Callable<Integer> {
      @ParentCommand
      Reconciliation parent;
      @Spec
      CommandSpec spec;
      @Option(names = "--limit", defaultValue = "100", description = "At most this many (1 to 1000).")
      int limit;

      @Override
      public Integer call() throws Exception {
        return print(spec, parent.admin.client().get("/admin/reconciliations?limit=" + limit));
      }
    }
  }

  @Command(name = "resolve", mixinStandardHelpOptions = true, subcommands = {Resolve.Settled.class,
      Resolve.Failed.class},
      description = "Resolve a RECONCILIATION_REQUIRED transfer: the service publishes its settlement and writes who"
          + " and why to the audit log.")
  static final class Resolve {
    @ParentCommand
    AdminCommand admin;

    /** What every resolution names: the transfer, who decides and why (a picocli mixin). */
    static final class Target {
      @Parameters(index = "0", paramLabel = "REQUEST_ID")
      String requestId;
      @Parameters(index = "1", paramLabel = "TRANSFER_ID")
      String transferId;
      @Option(names = "--operator", description = "Who decides: required with the shared admin token; with your own"
          + " operator token the service records you (if given, it must be your name).")
      String operator;
      @Option(names = "--reason", required = true, description = "Why (written to the audit log).")
      String reason;

      /** Posts the resolution: {@code outcome}, then {@code details}, then who and why. */
      int post(AdminCommand admin, CommandSpec spec, String outcome, Map<String, Object> details) throws Exception {
        Map<String, Object> body = new LinkedHashMap<>();
        body.put("outcome", outcome);
        body.putAll(details);
        if (operator != null) {
          body.put("operator", operator);
        }
        body.put("reason", reason);
        return print(spec, admin.client().post("/admin/reconciliations/" + AdminClient.segment(requestId) + "/"
            + AdminClient.segment(transferId) + "/resolve", COMPACT.writeValueAsString(body)));
      }
    }

    @Command(name = "settled", mixinStandardHelpOptions = true,
        description = "The transfer was paid by TX_HASH, a transaction of its wallet; the service verifies on chain"
            + " that it pays the transfer's destination and amount.")
    static final class Settled implements Callable<Integer> {
      @ParentCommand
      Resolve resolve;
      @Spec
      CommandSpec spec;
      @Mixin
      Target target;
      @Option(names = "--tx", required = true, paramLabel = "TX_HASH", description = "The paying transaction (hex).")
      String txHash;
      @Option(names = "--lt", description = "Its logical time: looks it up directly (else the wallet is searched).")
      Long lt;

      @Override
      public Integer call() throws Exception {
        Map<String, Object> details = new LinkedHashMap<>();
        details.put("txHash", txHash);
        if (lt != null) {
          details.put("lt", lt);
        }
        return target.post(resolve.admin, spec, "SETTLED", details);
      }
    }

    @Command(name = "failed", mixinStandardHelpOptions = true,
        description = {"The transfer was not paid and will not be: its settlement becomes FAILED.",
            "The service refuses (and says what is missing) until the chain shows it cannot have been paid: no"
                + " message at its seqno can still apply, and no transaction of its wallet since it was recorded pays"
                + " its destination its amount, unless --acknowledge-pays-something-else names that transaction."})
    static final class Failed implements Callable<Integer> {
      @ParentCommand
      Resolve resolve;
      @Spec
      CommandSpec spec;
      @Mixin
      Target target;
      @Option(names = "--acknowledge-pays-something-else", paramLabel = "TX_HASH",
          description = "The one transaction on chain that pays the transfer's destination its amount, which you"
              + " state pays something else (recorded in the audit log). Give it only when the service named it.")
      String acknowledged;

      @Override
      public Integer call() throws Exception {
        Map<String, Object> details = new LinkedHashMap<>();
        if (acknowledged != null) {
          details.put("acknowledgePaysSomethingElse", acknowledged);
        }
        return target.post(resolve.admin, spec, "FAILED", details);
      }
    }
  }
}
