package org.tonpayouts.cli;

import com.fasterxml.jackson.databind.ObjectMapper;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.ParentCommand;
import picocli.CommandLine.Spec;

/**
 * {@code payouts admin holds list | release}: the transfers the rolling spend caps hold back
 * (docs/operations.md: spend caps), and an operator's release of one.
 */
final class AdminHoldCommands {
  private static final ObjectMapper COMPACT = new ObjectMapper();

  private AdminHoldCommands() {}

  @Command(name = "holds", mixinStandardHelpOptions = true, subcommands = {Holds.List.class, Holds.Release.class},
      description = "Transfers a rolling spend cap holds back (not signed; their wallets' later transfers wait).")
  static final class Holds {
    @ParentCommand
    AdminCommand admin;

    @Command(name = "list", mixinStandardHelpOptions = true,
        description = "The held transfers, oldest first: the cap, window, spend, amount, since when, and when the"
            + " window has room.")
    static final class List implements Callable<Integer> {
      @ParentCommand
      Holds parent;
      @Spec
      CommandSpec spec;
      @Option(names = "--limit", defaultValue = "100", description = "At most this many (1 to 1000).")
      int limit;

      @Override
      public Integer call() throws Exception {
        return AdminCommand.print(spec, parent.admin.client().get("/admin/holds?limit=" + limit));
      }
    }

    @Command(name = "release", mixinStandardHelpOptions = true,
        description = {"Let one held transfer past the spend caps, once: its wallet signs it at its next try (it still"
            + " counts toward the spend).", "Exit code 1 when no hold of it waits, or it was released already."})
    static final class Release implements Callable<Integer> {
      @ParentCommand
      Holds parent;
      @Spec
      CommandSpec spec;
      @Parameters(index = "0", paramLabel = "REQUEST_ID")
      String requestId;
      @Parameters(index = "1", paramLabel = "TRANSFER_ID")
      String transferId;
      @Option(names = "--operator", required = true, description = "Who (written to the audit log).")
      String operator;
      @Option(names = "--reason", required = true, description = "Why (written to the audit log).")
      String reason;

      @Override
      public Integer call() throws Exception {
        Map<String, Object> body = new LinkedHashMap<>();
        body.put("operator", operator);
        body.put("reason", reason);
        return AdminCommand.print(spec, parent.admin.client().post("/admin/holds/" + AdminClient.segment(requestId)
            + "/" + AdminClient.segment(transferId) + "/release", COMPACT.writeValueAsString(body)));
      }
    }
  }
}
