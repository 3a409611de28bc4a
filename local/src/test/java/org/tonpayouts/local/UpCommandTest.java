package org.tonpayouts.local;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.tonpayouts.devnet.Devnet;
import org.tonpayouts.devnet.chain.DevnetTransaction;
import org.tonpayouts.local.audit.TransferRef;
import org.tonpayouts.local.demo.DemoLoad;
import org.tonpayouts.local.measure.SettlementWatcher;
import org.tonpayouts.local.stack.BuiltJars;
import org.tonpayouts.local.stack.ChildConfig;
import org.tonpayouts.local.stack.ChildProcess;
import org.tonpayouts.local.stack.Home;
import org.tonpayouts.local.stack.Http;
import org.tonpayouts.local.stack.StackRun;
import org.tonpayouts.runtime.PayoutsConfig;
import org.tonpayouts.schemas.AuditRecord;
import org.tonpayouts.schemas.PayoutRequest;
import org.tonpayouts.schemas.Settlement;
import org.tonpayouts.schemas.SettlementStatus;
import org.tonpayouts.schemas.Topics;
import org.tonpayouts.schemas.TransferKind;
import org.tonpayouts.schemas.TransferRequest;
import org.tonpayouts.ton.address.TonAddress;
import picocli.CommandLine;

/**
 * {@code payouts up} end to end with real child JVMs: it prints how to connect; both processes
 * answer {@code /metrics} and {@code /health/ready}; the printed console-producer line pays out; a
 * real RECONCILIATION_REQUIRED is resolved through {@code payouts admin} (admin API, second
 * settlement, ledger, audit log and {@code payout.audit});
 * {@code payouts topics} against its broker changes nothing; streams-app restarted with SIGTERM gets
 * its partitions back and pays again (how long it took is printed); Ctrl-C (an interrupt) stops it.
 */
class UpCommandTest {
  private static final Duration START_DEADLINE = Duration.ofSeconds(180);
  private static final Duration SETTLE_DEADLINE = Duration.ofSeconds(60);

  @TempDir
  Path tmp;

  @Test
  void shouldServeMetricsAndHealthSettleTheProducerLineAndPayAgainAfterARestart()
      throws Exception {
    Home home = Home.locate();
    BuiltJars.requireChildren(home);
    UpCommand up = new UpCommand();
    AtomicReference<StackRun> ready = new AtomicReference<>();
    up.onReady = ready::set;
    StringWriter out = new StringWriter();
    CommandLine cmd = new CommandLine(up);
    cmd.setOut(new PrintWriter(out, true));
    cmd.setErr(new PrintWriter(out, true));
    AtomicInteger exit = new AtomicInteger(-1);
    // short valid_until: chain-poller concludes a reconciliation once it has passed (plus the skew margin)
    Thread upThread = new Thread(() -> exit.set(cmd.execute("--wallets", "2", "--partitions", "2", "--block-ms",
        "100", "--data-dir", tmp.toString(), "--set", PayoutsConfig.TRANSFER_TTL_SECONDS_CONFIG + "=10", "--set",
        PayoutsConfig.TRANSFER_CLOCK_SKEW_SECONDS_CONFIG + "=2")), "payouts-up");
    upThread.start();
    try {
      await("payouts up printed its URLs").atMost(START_DEADLINE)
          .until(() -> ready.get() != null || !upThread.isAlive());
      assertThat(ready.get()).as("up is ready; output:%n%s", out).isNotNull();
      StackRun run = ready.get();
      String printed = out.toString();
      String bootstrap = run.stack().kafka().bootstrapServers();

      assertThat(printed)
          .contains(ConnectionInfo.BOOTSTRAP).contains(bootstrap)
          .contains(ConnectionInfo.JDBC).contains(run.stack().ledgerJdbcUrl())
          .contains("kafka-console-producer.sh --bootstrap-server " + bootstrap + " --topic payout.requests")
          .contains(ConnectionInfo.ADMIN).contains(run.admin().url())
          .contains("./payouts admin --url " + run.admin().url() + " --token-file " + run.admin().tokenFile());
      for (ChildProcess child : run.processes().children()) {
        assertThat(printed).contains(child.spec().opsUrl("/metrics")).contains(child.spec().opsUrl("/health/ready"));
        assertScrapes(child);
        assertReady(child);
      }

      try (SettlementWatcher watcher = SettlementWatcher.start(bootstrap, Clock.systemUTC())) {
        String requestId = produceThePrintedLine(printed, bootstrap);
        awaitSettled(watcher, new TransferRef(requestId, "payout"));
        ChildProcess streamsApp = child(run, ChildConfig.STREAMS_APP);
        assertThat(Http.get(streamsApp.spec().opsUrl("/metrics")).body())
            .containsPattern("payout_transfers_settled_total\\{[^}]*status=\"SETTLED\"[^}]*\\} 1\\.0")
            .containsPattern("ton_api_requests_seconds_count\\{[^}]*method=\"sendBocReturnHash\"[^}]*outcome=\"ok\"");

        assertAdminApiResolvesARealReconciliation(run, watcher);
        assertEveryDashboardMetricIsScraped(run, home.dir());
        assertTopicsCommandChangesNothing(bootstrap);

        long restartStarted = System.nanoTime();
        run.processes().restart(ChildConfig.STREAMS_APP);
        run.processes().awaitReady(run.stack().kafka().admin(), START_DEADLINE);
        Duration restart = Duration.ofNanos(System.nanoTime() - restartStarted);
        // a figure to read, not a bound to assert: the machine's speed is not the behaviour under test (the clean
        // close's leave-group choice is StreamsPropertiesTest's)
        System.out.printf("streams-app restart (SIGTERM, clean close, new JVM): partitions assigned and ready after"
            + " %.1f s (a member that does not leave the group holds them for the 45 s session timeout)%n",
            restart.toMillis() / 1000.0);

        PayoutRequest second = PayoutRequest.of("up-test-after-restart", run.wallets().firstSubwallet(),
            List.of(new TransferRequest("payout", TransferKind.PAYOUT, run.wallets().recipient(1).toFriendly(false,
                false), DemoLoad.PAYOUT_UNIT_NANO, null, null)), Instant.now());
        produce(bootstrap, second.walletKey(), new String(org.tonpayouts.schemas.Topics.PAYOUT_REQUESTS.valueSerde()
            .serializer().serialize("payout.requests", second), StandardCharsets.UTF_8));
        awaitSettled(watcher, new TransferRef(second.requestId(), "payout"));
      }
    } finally {
      upThread.interrupt();
      upThread.join(Duration.ofSeconds(90).toMillis());
    }
    assertThat(upThread.isAlive()).as("up stopped after the interrupt").isFalse();
    assertThat(exit.get()).isZero();
    assertThat(out.toString()).contains("the local stack stopped");
  }

  /**
   * The admin API end to end through {@code payouts admin}: devnet drops a transfer's message and
   * another signer uses its seqno, so chain-poller reports RECONCILIATION_REQUIRED; the CLI lists
   * it, a transaction that does not pay it is refused, an operator pays by hand and resolves with
   * that transaction; the second settlement, the ledger row, the audit row and the payout.audit
   * record all say so. Without the token the API answers 401.
   */
  private static void assertAdminApiResolvesARealReconciliation(StackRun run, SettlementWatcher watcher)
      throws Exception {
    Devnet devnet = run.stack().devnet().orElseThrow();
    long subwallet = run.wallets().firstSubwallet();
    TonAddress wallet = run.wallets().address(subwallet);
    TonAddress payee = run.wallets().recipient(2);
    long amount = 3 * DemoLoad.PAYOUT_UNIT_NANO;
    ChildConfig.AdminAccess admin = run.admin();

    HttpResponse<String> anonymous = Http.get(admin.url() + "/admin/reconciliations");
    assertThat(anonymous.statusCode()).isEqualTo(401);

    long dropped = devnet.faults().counts().dropped();
    devnet.faults().dropNext(1);
    PayoutRequest request = PayoutRequest.of("up-test-reconcile", subwallet, List.of(new TransferRequest("payout",
        TransferKind.PAYOUT, payee.toFriendly(false, false), amount, null, null)), Instant.now());
    produce(run.stack().kafka().bootstrapServers(), request.walletKey(), new String(
        Topics.PAYOUT_REQUESTS.valueSerde().serializer().serialize("payout.requests", request), StandardCharsets.UTF_8));
    await("devnet dropped the transfer's message").atMost(SETTLE_DEADLINE).until(() ->
        devnet.faults().counts().dropped() > dropped);
    // another signer uses the wallet's seqno first: the transfer's message can never apply
    String foreign = payByHand(devnet, wallet, run.wallets().recipient(3), amount + 1);
    TransferRef ref = new TransferRef(request.requestId(), "payout");
    await("RECONCILIATION_REQUIRED from chain-poller").atMost(SETTLE_DEADLINE).until(() -> !watcher.settlements(ref)
        .isEmpty());
    assertThat(watcher.settlements(ref).get(0).settlement().status()).isEqualTo(SettlementStatus.RECONCILIATION_REQUIRED);

    String[] cli = {"admin", "--url", admin.url(), "--token-file", admin.tokenFile().toString()};
    Cli listed = cli(cli, "reconciliation", "list");
    assertThat(listed.exit()).as(listed.err()).isZero();
    assertThat(listed.out()).contains(request.requestId()).contains("RECONCILIATION_REQUIRED");

    Cli refused = cli(cli, "resolve", "settled", request.requestId(), "payout", "--tx", foreign, "--operator",
        "alice", "--reason", "is this it?");
    assertThat(refused.exit()).isEqualTo(1);
    assertThat(refused.err()).contains("HTTP 422").contains("does not pay " + amount + " nanotons to " + payee.toRaw());

    String byHand = payByHand(devnet, wallet, payee, amount);
    Cli resolved = cli(cli, "resolve", "settled", request.requestId(), "payout", "--tx", byHand, "--operator",
        "alice", "--reason", "paid by hand, ticket OPS-17");
    assertThat(resolved.exit()).as(resolved.err()).isZero();
    long auditId = new ObjectMapper().readTree(resolved.out()).at("/audit/auditId").asLong();

    await("the resolution's settlement").atMost(SETTLE_DEADLINE).until(() -> watcher.settlements(ref).size() == 2);
    Settlement second = watcher.settlements(ref).get(1).settlement();
    assertThat(second.status()).isEqualTo(SettlementStatus.SETTLED);
    assertThat(second.txHash()).isEqualTo(byHand);
    assertThat(second.resolution().operator()).isEqualTo("alice (shared token)");
    assertThat(second.resolution().auditId()).isEqualTo(auditId);
    try (Connection db = DriverManager.getConnection(run.stack().ledgerJdbcUrl(), run.stack().postgres().user(),
        run.stack().postgres().password()); Statement st = db.createStatement()) {
      ResultSet transfer = st.executeQuery("select status, tx_hash from payout_transfers where request_id = '"
          + request.requestId() + "'");
      assertThat(transfer.next()).isTrue();
      assertThat(transfer.getString(1)).isEqualTo("SETTLED");
      assertThat(transfer.getString(2)).isEqualTo(byHand);
      ResultSet audit = st.executeQuery("select event, detail from audit_log where id = " + auditId);
      assertThat(audit.next()).isTrue();
      assertThat(audit.getString(1)).isEqualTo("OPERATOR_RESOLUTION");
      assertThat(audit.getString(2)).contains("alice").contains("OPS-17");
    }
    await("the resolution on payout.audit").atMost(SETTLE_DEADLINE).until(() -> auditRecords(
        run.stack().kafka().bootstrapServers()).stream().anyMatch(a -> a.auditId() == auditId
        && a.event().equals("OPERATOR_RESOLUTION") && request.requestId().equals(a.requestId())));

    Cli lifecycle = cli(cli, "request", request.requestId());
    assertThat(lifecycle.exit()).isZero();
    assertThat(lifecycle.out()).contains("\"status\" : \"SETTLED\"").contains("RECONCILIATION_REQUIRED")
        .contains("OPERATOR_RESOLUTION");
    Cli walletView = cli(cli, "wallet", Long.toString(subwallet));
    assertThat(walletView.exit()).isZero();
    assertThat(walletView.out()).contains("\"source\" : \"this-instance\"").contains("\"balanceNano\"");
    assertThat(Http.get(child(run, ChildConfig.STREAMS_APP).spec().opsUrl("/metrics")).body())
        .containsPattern("payout_audit_events_total\\{[^}]*event=\"OPERATOR_RESOLUTION\"")
        .containsPattern("payout_admin_requests_seconds_count\\{[^}]*status=\"401\"");
  }

  /** What {@code payouts ...} printed and returned. */
  private record Cli(int exit, String out, String err) {}

  private static Cli cli(String[] prefix, String... args) {
    StringWriter out = new StringWriter();
    StringWriter err = new StringWriter();
    CommandLine cmd = LocalStackMain.commandLine();
    cmd.setOut(new PrintWriter(out, true));
    cmd.setErr(new PrintWriter(err, true));
    String[] all = new String[prefix.length + args.length];
    System.arraycopy(prefix, 0, all, 0, prefix.length);
    System.arraycopy(args, 0, all, prefix.length, args.length);
    int exit = cmd.execute(all);
    return new Cli(exit, out.toString(), err.toString());
  }

  /** A transfer from the wallet that streams-app did not sign (devnet applies it in its next block). */
  private static String payByHand(Devnet devnet, TonAddress wallet, TonAddress to, long amount) {
    devnet.foreignTransfer(wallet, to, amount, null);
    await("the hand-made transfer on chain").atMost(SETTLE_DEADLINE).until(() -> paying(devnet, wallet, to, amount)
        .isPresent());
    return paying(devnet, wallet, to, amount).orElseThrow();
  }

  private static java.util.Optional<String> paying(Devnet devnet, TonAddress wallet, TonAddress to, long amount) {
    return devnet.transactions(wallet).stream().filter(t -> t.outMsgs().stream()
        .anyMatch(m -> to.equals(m.destination()) && m.value() == amount)).map(DevnetTransaction::hash).findFirst();
  }

  private static List<AuditRecord> auditRecords(String bootstrap) {
    try (KafkaConsumer<String, byte[]> consumer = new KafkaConsumer<>(Map.of(
        ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap, ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed"),
        new StringDeserializer(), new ByteArrayDeserializer())) {
      List<TopicPartition> partitions = consumer.partitionsFor(Topics.PAYOUT_AUDIT.name()).stream()
          .map(p -> new TopicPartition(p.topic(), p.partition())).toList();
      consumer.assign(partitions);
      consumer.seekToBeginning(partitions);
      Map<TopicPartition, Long> end = consumer.endOffsets(partitions);
      List<AuditRecord> records = new java.util.ArrayList<>();
      while (partitions.stream().anyMatch(p -> consumer.position(p) < end.get(p))) {
        for (ConsumerRecord<String, byte[]> r : consumer.poll(Duration.ofMillis(100))) {
          records.add(Topics.PAYOUT_AUDIT.valueSerde().deserializer().deserialize(r.topic(), r.value()));
        }
      }
      return records;
    }
  }

  private static ChildProcess child(StackRun run, String name) {
    return run.processes().children().stream().filter(c -> c.name().equals(name)).findFirst().orElseThrow();
  }

  private static void assertScrapes(ChildProcess child) throws Exception {
    HttpResponse<String> metrics = Http.get(child.spec().opsUrl("/metrics"));
    assertThat(metrics.statusCode()).isEqualTo(200);
    assertThat(metrics.body()).as(child.name())
        .contains("application=\"" + child.name() + "\"")
        .contains("jvm_memory_used_bytes{")
        .contains("kafka_stream_thread_")
        .contains("ton_api_requests_seconds_count{");
    if (child.name().equals(ChildConfig.STREAMS_APP)) {
      assertThat(metrics.body()).contains("hikaricp_connections{").contains("payout_requests_accepted_total{");
    } else {
      assertThat(metrics.body()).contains("poller_wallet_polls_total{");
    }
  }

  private static void assertReady(ChildProcess child) throws Exception {
    HttpResponse<String> live = Http.get(child.spec().opsUrl("/health/live"));
    assertThat(live.statusCode()).isEqualTo(200);
    HttpResponse<String> readiness = Http.get(child.spec().opsUrl("/health/ready"));
    assertThat(readiness.statusCode()).as(readiness.body()).isEqualTo(200);
    JsonNode body = new ObjectMapper().readTree(readiness.body());
    assertThat(body.get("status").asText()).isEqualTo("UP");
    assertThat(body.at("/checks/streams/detail").asText()).isEqualTo("state RUNNING");
    assertThat(body.at("/checks/tonApi/status").asText()).isEqualTo("UP");
    assertThat(body.at("/checks/kafka/status").asText()).isEqualTo("UP");
    if (child.name().equals(ChildConfig.STREAMS_APP)) {
      assertThat(body.at("/checks/postgres/status").asText()).isEqualTo("UP");
    }
  }

  /** Sends the printed {@code echo '<key>|<json>'} line as the console producer would: key and value as strings. */
  private static String produceThePrintedLine(String printed, String bootstrap) throws Exception {
    Matcher m = Pattern.compile("echo '([^|']+)\\|([^']+)' \\| kafka-console-producer\\.sh").matcher(printed);
    assertThat(m.find()).as("a console producer line in:%n%s", printed).isTrue();
    produce(bootstrap, m.group(1), m.group(2));
    return new ObjectMapper().readTree(m.group(2)).get("requestId").asText();
  }

  private static void produce(String bootstrap, String key, String value) throws Exception {
    Properties props = new Properties();
    props.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
    try (KafkaProducer<String, String> producer = new KafkaProducer<>(props, new StringSerializer(),
        new StringSerializer())) {
      producer.send(new ProducerRecord<>("payout.requests", key, value)).get();
    }
  }

  private static void awaitSettled(SettlementWatcher watcher, TransferRef ref) {
    await("settlement of " + ref).atMost(SETTLE_DEADLINE).until(() -> !watcher.settlements(ref).isEmpty());
    assertThat(watcher.settlements(ref).get(0).settlement().status()).isEqualTo(SettlementStatus.SETTLED);
  }

  /** The Grafana dashboard of docker-compose queries only series these two processes export. */
  private static void assertEveryDashboardMetricIsScraped(StackRun run, Path checkout) throws Exception {
    StringBuilder scrapes = new StringBuilder();
    for (ChildProcess child : run.processes().children()) {
      scrapes.append(Http.get(child.spec().opsUrl("/metrics")).body());
    }
    java.util.Set<String> names = DashboardQueries.metricNames(checkout);
    names.removeAll(DashboardQueries.PROMETHEUS_OWN);
    assertThat(names).isNotEmpty();
    assertThat(names).as("dashboard metrics missing from the scrapes of streams-app and chain-poller")
        .allMatch(name -> DashboardQueries.scraped(scrapes.toString(), name));
  }

  private static void assertTopicsCommandChangesNothing(String bootstrap) {
    for (int run = 1; run <= 2; run++) {
      StringWriter topicsOut = new StringWriter();
      CommandLine topics = LocalStackMain.commandLine();
      topics.setOut(new PrintWriter(topicsOut, true));
      topics.setErr(new PrintWriter(topicsOut, true));
      int code = topics.execute("topics", "--bootstrap-servers", bootstrap, "--partitions", "2");
      assertThat(code).as("run %d:%n%s", run, topicsOut).isZero();
      assertThat(topicsOut.toString()).as("run %d", run)
          .contains("ok        payout.requests partitions=2 replication=1")
          .contains("0 created, 0 updated, 0 conflicts");
    }
  }
}
