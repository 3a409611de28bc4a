package org.tonpayouts.local;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Properties;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.tonpayouts.schemas.PayoutRequest;
import org.tonpayouts.schemas.SettlementStatus;
import org.tonpayouts.schemas.TransferKind;
import org.tonpayouts.schemas.TransferRequest;
import picocli.CommandLine;

/**
 * {@code payouts up} end to end with real child JVMs: it prints how to connect; both processes
 * answer {@code /metrics} and {@code /health/ready}; the printed console-producer line pays out;
 * {@code payouts topics} against its broker changes nothing; streams-app restarted with SIGTERM gets
 * its partitions back in seconds (it left the group) and pays again; Ctrl-C (an interrupt) stops it.
 */
class UpCommandTest {
  private static final Duration START_DEADLINE = Duration.ofSeconds(180);
  private static final Duration SETTLE_DEADLINE = Duration.ofSeconds(60);
  /** Without leaving the group, a restarted member waits for the old one's session timeout (45 s). */
  private static final Duration RESTART_LIMIT = Duration.ofSeconds(30);

  @TempDir
  Path tmp;

  @Test
  void shouldServeMetricsAndHealthSettleTheProducerLineAndRestartWithoutWaitingForTheSessionTimeout()
      throws Exception {
    Home home = Home.locate();
    assumeTrue(Files.isRegularFile(home.streamsAppJar()) && Files.isRegularFile(home.chainPollerJar()),
        "the children's shaded jars are built (mvn package of streams-app and chain-poller)");
    UpCommand up = new UpCommand();
    AtomicReference<StackRun> ready = new AtomicReference<>();
    up.onReady = ready::set;
    StringWriter out = new StringWriter();
    CommandLine cmd = new CommandLine(up);
    cmd.setOut(new PrintWriter(out, true));
    cmd.setErr(new PrintWriter(out, true));
    AtomicInteger exit = new AtomicInteger(-1);
    Thread upThread = new Thread(() -> exit.set(cmd.execute("--wallets", "2", "--partitions", "2", "--block-ms",
        "100", "--data-dir", tmp.toString())), "payouts-up");
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
          .contains("kafka-console-producer.sh --bootstrap-server " + bootstrap + " --topic payout.requests");
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

        assertEveryDashboardMetricIsScraped(run, home.dir());
        assertTopicsCommandChangesNothing(bootstrap);

        long restartStarted = System.nanoTime();
        run.processes().restart(ChildConfig.STREAMS_APP);
        run.processes().awaitReady(run.stack().kafka().admin(), START_DEADLINE);
        Duration restart = Duration.ofNanos(System.nanoTime() - restartStarted);
        System.out.printf("streams-app restart (SIGTERM, clean close, new JVM): partitions assigned and ready after"
            + " %.1f s (a member that does not leave the group holds them for the 45 s session timeout)%n",
            restart.toMillis() / 1000.0);
        assertThat(restart).isLessThan(RESTART_LIMIT);

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
