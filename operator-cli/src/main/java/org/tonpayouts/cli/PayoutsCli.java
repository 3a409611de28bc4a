package org.tonpayouts.cli;

import org.tonpayouts.runtime.topics.TopicsCommand;
import org.tonpayouts.ton.api.CommonPool;
import picocli.CommandLine.Command;
import picocli.CommandLine.IExecutionExceptionHandler;
import picocli.CommandLine;

/**
 * The operator's command line, {@code java -jar payouts-cli.jar}, deployed beside the two apps:
 * streams-app's admin API ({@code admin}), subwallet addresses ({@code wallets}), the payout topics
 * ({@code topics}) and the configuration reference ({@code config-table}). It needs none of the local
 * stack; the local launcher ({@code ./payouts}) carries the same commands.
 *
 * <pre>
 * java -jar payouts-cli.jar admin --url http://streams-app-1:8090 reconciliation list   # PAYOUTS_ADMIN_TOKEN
 * java -jar payouts-cli.jar wallets --from 698983191 --count 5 --wallet-secret-file key.txt
 * java -jar payouts-cli.jar topics --config payouts.properties
 * </pre>
 */
@Command(name = "payouts-cli", mixinStandardHelpOptions = true, version = "ton-payouts operator CLI 0.1.0",
    description = "TON payouts on Kafka Streams: the operator's commands.",
    subcommands = {AdminCommand.class, WalletsCommand.class, TopicsCommand.class, ConfigTableCommand.class,
        CommandLine.HelpCommand.class})
public final class PayoutsCli {
  static {
    CommonPool.ensureShared(); // before anything uses ForkJoinPool (the admin client's HTTP answers): see CommonPool
  }

  public static void main(String[] args) {
    System.exit(commandLine().execute(args));
  }

  public static CommandLine commandLine() {
    return new CommandLine(new PayoutsCli()).setExecutionExceptionHandler(oneLineErrors("payouts-cli"));
  }

  /**
   * Prints an expected failure (bad options, a port taken, a child that would not start, a key file
   * holding no key) as one line, {@code <program>: <message>}, plus one line per cause the message
   * does not already say, and exits 2.
   */
  public static IExecutionExceptionHandler oneLineErrors(String program) {
    return (e, cmd, parsed) -> {
      cmd.getErr().println(program + ": " + (e.getMessage() != null ? e.getMessage() : e.toString()));
      for (Throwable cause = e.getCause(); cause != null && cause != cause.getCause(); cause = cause.getCause()) {
        if (cause.getMessage() == null || e.getMessage() == null || !e.getMessage().contains(cause.getMessage())) {
          cmd.getErr().println("  caused by: " + cause);
        }
      }
      return 2;
    };
  }
}
