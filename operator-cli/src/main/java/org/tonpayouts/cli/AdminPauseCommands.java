package org.tonpayouts.cli;

import com.fasterxml.jackson.databind.ObjectMapper;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.ArgGroup;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParentCommand;
import picocli.CommandLine.Spec;

/**
 * {@code payouts admin pause | resume | pauses}: the pause switch of the incident runbook
 * (docs/operations.md). A pause stops all new signing for the deployment or one subwallet; what is
 * in flight still settles and requests keep queueing.
 */
final class AdminPauseCommands {
  private static final ObjectMapper COMPACT = new ObjectMapper();

  private AdminPauseCommands() {}

  /** The deployment, or one subwallet: exactly one must be given (no default, so no slip pauses or resumes all). */
  static final class Scope {
    @Option(names = "--deployment", required = true, description = "Every subwallet of the deployment.")
    boolean deployment;
    @Option(names = "--subwallet", required = true, paramLabel = "SUBWALLET_ID", description = "One subwallet.")
    Long subwalletId;

    String value() {
      return deployment ? "deployment" : Long.toString(subwalletId);
    }
  }

  /** Which scope, who and why (a picocli mixin shared by pause and resume). */
  static final class Change {
    @ArgGroup(exclusive = true, multiplicity = "1")
    Scope scope;
    @Option(names = "--operator", description = "Who: required with the shared admin token; with your own operator"
        + " token the service records you (if given, it must be your name).")
    String operator;
    @Option(names = "--reason", required = true, description = "Why (written to the audit log).")
    String reason;

    int post(AdminCommand admin, CommandSpec spec, String path) throws Exception {
      Map<String, Object> body = new LinkedHashMap<>();
      body.put("scope", scope.value());
      if (operator != null) {
        body.put("operator", operator);
      }
      body.put("reason", reason);
      return AdminCommand.print(spec, admin.client().post(path, COMPACT.writeValueAsString(body)));
    }
  }

  @Command(name = "pause", mixinStandardHelpOptions = true,
      description = {"Stop signing for the whole deployment (--deployment) or one subwallet (--subwallet): in force"
          + " when this returns, across restarts, until resumed. In-flight transfers still settle; requests keep"
          + " queueing.", "Exit code 1 when the scope is paused already."})
  static final class Pause implements Callable<Integer> {
    @ParentCommand
    AdminCommand admin;
    @Spec
    CommandSpec spec;
    @Mixin
    Change change;

    @Override
    public Integer call() throws Exception {
      return change.post(admin, spec, "/admin/pause");
    }
  }

  @Command(name = "resume", mixinStandardHelpOptions = true,
      description = {"Lift the pause of the deployment (--deployment) or of one subwallet (--subwallet); each is"
          + " lifted on its own. Queued transfers are signed within about a second.",
          "Exit code 1 when the scope is not paused (the answer names the pauses in force)."})
  static final class Resume implements Callable<Integer> {
    @ParentCommand
    AdminCommand admin;
    @Spec
    CommandSpec spec;
    @Mixin
    Change change;

    @Override
    public Integer call() throws Exception {
      return change.post(admin, spec, "/admin/resume");
    }
  }

  @Command(name = "pauses", mixinStandardHelpOptions = true,
      description = "The pauses in force, and the latest 50 including lifted ones (who, when, why).")
  static final class Pauses implements Callable<Integer> {
    @ParentCommand
    AdminCommand admin;
    @Spec
    CommandSpec spec;

    @Override
    public Integer call() throws Exception {
      return AdminCommand.print(spec, admin.client().get("/admin/pauses"));
    }
  }
}
