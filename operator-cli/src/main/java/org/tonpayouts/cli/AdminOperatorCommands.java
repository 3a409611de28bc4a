package org.tonpayouts.cli;

import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.PrintWriter;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.Callable;
import org.tonpayouts.runtime.PayoutsConfig;
import org.tonpayouts.runtime.admin.OperatorTokens;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.ParentCommand;
import picocli.CommandLine.Spec;

/**
 * {@code payouts-cli admin operator-token | approvals}: operators by name and the two-person rule
 * (docs/operations.md: Operators, Approvals; docs/production.md: Operators).
 */
final class AdminOperatorCommands {
  private static final ObjectMapper COMPACT = new ObjectMapper();

  private AdminOperatorCommands() {}

  @Command(name = "operator-token", mixinStandardHelpOptions = true,
      description = {"Make a fresh token for an operator: prints the token (once: it is stored nowhere; hand it to the"
          + " operator, who keeps it in a file of mode 600 for --token-file) and the line to add to "
          + PayoutsConfig.ADMIN_OPERATORS_FILE_CONFIG + " (the token's SHA-256 only).",
          "Rotating a token: make a new one for the same name and replace the operator's line; streams-app takes the"
              + " changed file at the next call."})
  static final class OperatorToken implements Callable<Integer> {
    @Spec
    CommandSpec spec;
    @Option(names = "--name", required = true, description = "The operator's name as the audit log will record it.")
    String name;

    @Override
    public Integer call() {
      if (!OperatorTokens.NAME.matcher(name).matches()) {
        throw new CommandLine.ParameterException(spec.commandLine(), OperatorTokens.nameRule(name));
      }
      String token = OperatorTokens.newToken();
      PrintWriter out = spec.commandLine().getOut();
      out.println("token: " + token);
      out.println("line for " + PayoutsConfig.ADMIN_OPERATORS_FILE_CONFIG + ": " + OperatorTokens.line(name, token));
      out.flush();
      return 0;
    }
  }

  @Command(name = "approvals", mixinStandardHelpOptions = true,
      subcommands = {Approvals.List.class, Approvals.Approve.class, Approvals.Reject.class},
      description = "The two-person rule: resolutions waiting for a second operator.")
  static final class Approvals {
    @ParentCommand
    AdminCommand admin;

    @Command(name = "list", mixinStandardHelpOptions = true,
        description = "The approvals waiting for a second operator, and the latest 50 in any state.")
    static final class List implements Callable<Integer> {
      @ParentCommand
      Approvals parent;
      @Spec
      CommandSpec spec;

      @Override
      public Integer call() throws Exception {
        return AdminCommand.print(spec, parent.admin.client().get("/admin/approvals"));
      }
    }

    @Command(name = "approve", mixinStandardHelpOptions = true,
        description = {"Approve a resolution another operator asked for: the service checks the chain again and the"
            + " resolution takes effect, both operators recorded.", "Exit code 1 when refused (your own request,"
            + " decided or expired already, or the chain no longer proves it)."})
    static final class Approve implements Callable<Integer> {
      @ParentCommand
      Approvals parent;
      @Spec
      CommandSpec spec;
      @Parameters(index = "0", paramLabel = "APPROVAL_ID")
      long approvalId;

      @Override
      public Integer call() throws Exception {
        return AdminCommand.print(spec, parent.admin.client().post("/admin/approvals/" + approvalId + "/approve",
            "{}"));
      }
    }

    @Command(name = "reject", mixinStandardHelpOptions = true,
        description = "Turn down a resolution waiting for approval (cancel it, if you asked for it); the transfer"
            + " stays RECONCILIATION_REQUIRED.")
    static final class Reject implements Callable<Integer> {
      @ParentCommand
      Approvals parent;
      @Spec
      CommandSpec spec;
      @Parameters(index = "0", paramLabel = "APPROVAL_ID")
      long approvalId;
      @Option(names = "--reason", required = true, description = "Why (written to the audit log).")
      String reason;

      @Override
      public Integer call() throws Exception {
        Map<String, Object> body = new LinkedHashMap<>();
        body.put("reason", reason);
        return AdminCommand.print(spec, parent.admin.client().post("/admin/approvals/" + approvalId + "/reject",
            COMPACT.writeValueAsString(body)));
      }
    }
  }
}
