package org.tonpayouts.local;

import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.List;
import org.tonpayouts.local.demo.DemoLoad;
import org.tonpayouts.local.stack.ChildConfig;
import org.tonpayouts.local.stack.ChildProcess;
import org.tonpayouts.local.stack.StackRun;
import org.tonpayouts.local.stack.WalletSet;
import org.tonpayouts.schemas.PayoutRequest;
import org.tonpayouts.schemas.Topics;
import org.tonpayouts.schemas.TransferKind;
import org.tonpayouts.schemas.TransferRequest;

/**
 * What {@code payouts up} prints once the stack is ready: where Kafka, PostgreSQL, devnet and the
 * two processes' metrics and health are, and a console-producer line with a valid request.
 */
final class ConnectionInfo {
  static final String BOOTSTRAP = "Kafka bootstrap servers";
  static final String JDBC = "PostgreSQL ledger";
  static final String PRODUCE_HEADER = "Produce a payout request";
  static final String ADMIN = "streams-app admin API";

  private ConnectionInfo() {}

  /** A valid request paying 0.01 TON from the first funded wallet to a fresh recipient. */
  static PayoutRequest sampleRequest(StackRun run, Instant now) {
    WalletSet wallets = run.wallets();
    TransferRequest transfer = new TransferRequest("payout", TransferKind.PAYOUT,
        wallets.recipient(0).toFriendly(false, run.options().testnet()), DemoLoad.PAYOUT_UNIT_NANO, "hello from up",
        null);
    return PayoutRequest.of("up-" + run.directory().runId() + "-1", wallets.firstSubwallet(), List.of(transfer), now);
  }

  /** The request as the console producer sends it: {@code <key>|<json>} on one line. */
  static String producerInput(PayoutRequest request) {
    byte[] json = Topics.PAYOUT_REQUESTS.valueSerde().serializer().serialize(Topics.PAYOUT_REQUESTS.name(), request);
    return request.walletKey() + "|" + new String(json, StandardCharsets.UTF_8);
  }

  static void print(StackRun run, PrintWriter out, Instant now) {
    String bootstrap = run.stack().kafka().bootstrapServers();
    out.println();
    out.println("The local stack is up, with no load. Ctrl-C stops it.");
    out.println();
    out.printf("  %-29s %s%n", BOOTSTRAP, bootstrap);
    out.printf("  %-29s %s (user %s, no password: trust on localhost)%n", JDBC, run.stack().ledgerJdbcUrl(),
        run.stack().postgres().user());
    run.stack().devnet().ifPresent(d -> out.printf("  %-29s %s (funded wallets: subwallets %d..%d)%n", "devnet (TON API)",
        d.baseUrl(), run.wallets().firstSubwallet(), run.wallets().lastSubwallet()));
    for (ChildProcess child : run.processes().children()) {
      out.printf("  %-29s %s  %s  %s%n", child.name() + " metrics, health", child.spec().opsUrl("/metrics"),
          child.spec().opsUrl("/health/live"), child.spec().opsUrl("/health/ready"));
      out.printf("  %-29s %s%n", child.name() + " log", child.spec().logFile());
    }
    ChildConfig.AdminAccess admin = run.admin();
    out.printf("  %-29s %s (bearer token in %s)%n", ADMIN, admin.url(), admin.tokenFile());
    out.println();
    out.println("Ask the admin API (transfers waiting for a reconciliation, a request's lifecycle, a wallet):");
    out.println("  ./payouts admin --url " + admin.url() + " --token-file " + admin.tokenFile()
        + " reconciliation list");
    out.println();
    out.println(PRODUCE_HEADER + " (Apache Kafka's bin/ on the PATH; key and value separated by '|'):");
    out.println("  echo '" + producerInput(sampleRequest(run, now)) + "' | kafka-console-producer.sh"
        + " --bootstrap-server " + bootstrap + " --topic " + Topics.PAYOUT_REQUESTS.name()
        + " --property parse.key=true --property 'key.separator=|'");
    out.println("Watch the settlements:");
    out.println("  kafka-console-consumer.sh --bootstrap-server " + bootstrap + " --topic "
        + Topics.PAYOUT_SETTLEMENTS.name() + " --from-beginning --isolation-level read_committed"
        + " --property print.key=true");
    out.println();
    out.flush();
  }
}
