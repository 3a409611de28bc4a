package org.tonpayouts.local;

import java.util.Set;
import org.tonpayouts.cli.AdminCommand;
import org.tonpayouts.cli.ConfigTableCommand;
import org.tonpayouts.cli.PayoutsCli;
import org.tonpayouts.cli.WalletsCommand;
import org.tonpayouts.local.bench.BenchCommand;
import org.tonpayouts.local.demo.DemoCommand;
import org.tonpayouts.local.soak.SoakCommand;
import org.tonpayouts.runtime.topics.TopicsCommand;
import org.tonpayouts.ton.api.CommonPool;
import picocli.CommandLine.Command;
import picocli.CommandLine;

/**
 * The local stack launcher ({@code ./payouts}): {@code demo} (the default), {@code up}, {@code bench}, {@code soak},
 * and the operator's commands of payouts-cli.jar, {@code topics}, {@code wallets}, {@code config-table} and
 * {@code admin}. The one place that sees every package of the launcher. Run from the checkout's root:
 *
 * <pre>
 * ./payouts                                  # demo: 10 wallets, 50 requests, devnet with 400 ms blocks
 * ./payouts up                               # the stack with no load until Ctrl-C, and how to connect
 * ./payouts bench --wallets 100 --block-ms 400
 * ./payouts soak --transfers 2000 --wallets 50  # chaos: kill -9, a zombie, devnet faults; then a chain audit
 * ./payouts topics --config payouts.properties   # create or check the topics on any Kafka
 * ./payouts wallets --from 698983191 --count 5 --testnet --wallet-secret-file key.txt
 * ./payouts admin reconciliation list            # streams-app's admin API (PAYOUTS_ADMIN_TOKEN)
 * </pre>
 */
@Command(name = "payouts", mixinStandardHelpOptions = true, version = "ton-payouts local stack 0.1.0",
    description = "TON payouts on Kafka Streams: the whole pipeline on this machine.",
    subcommands = {DemoCommand.class, UpCommand.class, BenchCommand.class, SoakCommand.class, TopicsCommand.class,
        WalletsCommand.class, ConfigTableCommand.class, AdminCommand.class, CommandLine.HelpCommand.class})
public final class LocalStackMain {
  static {
    CommonPool.ensureShared(); // before anything uses ForkJoinPool: see CommonPool
  }

  private static final Set<String> TOP_LEVEL = Set.of("demo", "up", "bench", "soak", "topics", "wallets",
      "config-table", "admin", "help", "-h", "--help", "-V", "--version");

  public static void main(String[] args) {
    System.exit(execute(args));
  }

  /** Runs a command line; no subcommand (or options only) means {@code demo}. */
  public static int execute(String... args) {
    return commandLine().execute(withDefaultCommand(args));
  }

  public static CommandLine commandLine() {
    // expected failures (bad options, a port taken, a child that would not start) as one line each
    return new CommandLine(new LocalStackMain()).setExecutionExceptionHandler(PayoutsCli.oneLineErrors("payouts"));
  }

  static String[] withDefaultCommand(String[] args) {
    if (args.length > 0 && TOP_LEVEL.contains(args[0])) {
      return args;
    }
    String[] withDemo = new String[args.length + 1];
    withDemo[0] = "demo";
    System.arraycopy(args, 0, withDemo, 1, args.length);
    return withDemo;
  }
}
