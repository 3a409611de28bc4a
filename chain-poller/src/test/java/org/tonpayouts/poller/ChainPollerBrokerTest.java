package org.tonpayouts.poller;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;
import static org.tonpayouts.poller.Wallets.BOB;
import static org.tonpayouts.poller.Wallets.TON;
import static org.tonpayouts.poller.Wallets.send;
import static org.tonpayouts.poller.Wallets.submission;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;
import java.util.stream.Stream;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.IsolationLevel;
import org.apache.kafka.streams.KafkaStreams;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.tonpayouts.devnet.Devnet;
import org.tonpayouts.embedded.EmbeddedKafkaBroker;
import org.tonpayouts.embedded.SharedTestInfrastructure;
import org.tonpayouts.runtime.PayoutsConfig;
import org.tonpayouts.schemas.Confirmation;
import org.tonpayouts.schemas.ConfirmationStatus;
import org.tonpayouts.schemas.Submission;
import org.tonpayouts.schemas.Topics;
import org.tonpayouts.ton.api.TonApiClient;
import org.tonpayouts.ton.api.TonApiConfig;
import org.tonpayouts.ton.wallet.SignedTransfer;

/**
 * The chain poller as it runs: Kafka Streams with exactly-once v2 on a real KRaft broker, devnet
 * producing blocks in real time. A poller that loses its disk restores the watch list from the
 * changelog and still confirms a message it was watching before the restart.
 */
class ChainPollerBrokerTest {
  private static final Duration DEADLINE = Duration.ofSeconds(60);

  @TempDir
  Path tmp;

  private final Wallets wallets = new Wallets();
  private EmbeddedKafkaBroker kafka;
  private Devnet devnet;
  private TonApiClient api;
  private String applicationId;
  private final List<ChainPoller> pollers = new ArrayList<>();

  @BeforeEach
  void setUp() {
    kafka = SharedTestInfrastructure.kafka();
    kafka.createTopics(Map.of(Topics.PAYOUT_SUBMISSIONS.name(), 2, Topics.PAYOUT_CONFIRMATIONS.name(), 2));
    devnet = Devnet.builder().blockInterval(Duration.ofMillis(100)).start();
    api = new TonApiClient(TonApiConfig.of(devnet.baseUrl()).withRequestsPerSecond(1_000));
    applicationId = SharedTestInfrastructure.uniqueName("poller");
  }

  @AfterEach
  void tearDown() {
    pollers.forEach(ChainPoller::close);
    api.close();
    devnet.close();
  }

  private ChainPoller startPoller(Path stateDir) {
    PayoutsConfig config = PayoutsConfig.load(Optional.empty(), Map.of(
        PayoutsConfig.envName(PayoutsConfig.KAFKA_BOOTSTRAP_SERVERS_CONFIG), kafka.bootstrapServers(),
        PayoutsConfig.envName(PayoutsConfig.POLLER_APPLICATION_ID_CONFIG), applicationId,
        PayoutsConfig.envName(PayoutsConfig.STREAMS_STATE_DIR_CONFIG), stateDir.toString(),
        PayoutsConfig.envName(PayoutsConfig.TON_API_URL_CONFIG), devnet.baseUrl().toString(),
        PayoutsConfig.envName(PayoutsConfig.POLLER_INTERVAL_MS_CONFIG), "50",
        PayoutsConfig.envName(PayoutsConfig.VERDICT_MAC_KEYS_CONFIG), "test:" + "5e".repeat(32)));
    ChainPoller poller = new ChainPoller(config, api, Clock.systemUTC(), PollerMetrics.inMemory(), new Properties());
    pollers.add(poller);
    poller.start();
    await().atMost(DEADLINE).until(() -> poller.streams().state() == KafkaStreams.State.RUNNING);
    return poller;
  }

  private void publish(Submission s) {
    Properties props = new Properties();
    props.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, kafka.bootstrapServers());
    try (KafkaProducer<String, Submission> producer = new KafkaProducer<>(props,
        Topics.PAYOUT_SUBMISSIONS.keySerde().serializer(), Topics.PAYOUT_SUBMISSIONS.valueSerde().serializer())) {
      producer.send(new ProducerRecord<>(Topics.PAYOUT_SUBMISSIONS.name(), Topics.walletKey(s.subwalletId()), s));
    }
  }

  private KafkaConsumer<String, Confirmation> confirmationsConsumer() {
    Properties props = new Properties();
    props.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, kafka.bootstrapServers());
    props.put(ConsumerConfig.GROUP_ID_CONFIG, applicationId + "-reader");
    props.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest");
    props.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, IsolationLevel.READ_COMMITTED.toString().toLowerCase());
    KafkaConsumer<String, Confirmation> consumer = new KafkaConsumer<>(props,
        Topics.PAYOUT_CONFIRMATIONS.keySerde().deserializer(), Topics.PAYOUT_CONFIRMATIONS.valueSerde().deserializer());
    consumer.subscribe(List.of(Topics.PAYOUT_CONFIRMATIONS.name()));
    return consumer;
  }

  private static List<Confirmation> pollUntil(KafkaConsumer<String, Confirmation> consumer, List<Confirmation> seen,
      String messageHash) {
    await().atMost(DEADLINE).until(() -> {
      for (ConsumerRecord<String, Confirmation> r : consumer.poll(Duration.ofMillis(100))) {
        seen.add(r.value());
      }
      return seen.stream().anyMatch(c -> c.messageHash().equals(messageHash));
    });
    return seen;
  }

  @Test
  void shouldConfirmAfterRestoringTheWatchListFromItsChangelog() throws Exception {
    long first = 2001;
    long second = 2002;
    devnet.fund(wallets.address(first), 5 * TON);
    devnet.fund(wallets.address(second), 5 * TON);
    Instant validUntil = Instant.now().plusSeconds(120);
    SignedTransfer sentBeforeRestart = wallets.sign(first, 0, validUntil, BOB, TON);
    SignedTransfer sentAfterRestart = wallets.sign(second, 0, validUntil, BOB, 2 * TON);
    Path firstDisk = Files.createDirectories(tmp.resolve("first"));

    ChainPoller poller = startPoller(firstDisk);
    send(api, sentBeforeRestart);
    publish(submission(sentBeforeRestart, "req-before", Instant.now()));
    publish(submission(sentAfterRestart, "req-after", Instant.now()));
    List<Confirmation> seen = new ArrayList<>();
    try (KafkaConsumer<String, Confirmation> consumer = confirmationsConsumer()) {
      pollUntil(consumer, seen, sentBeforeRestart.messageHash());
      await().atMost(DEADLINE).until(() -> poller.metrics().count(PollerMetrics.WALLET_POLLS) > 2);

      // the process dies with its disk; a new one restores the watch list from the changelog
      poller.close();
      pollers.remove(poller);
      deleteRecursively(firstDisk);
      ChainPoller restarted = startPoller(Files.createDirectories(tmp.resolve("second")));
      send(api, sentAfterRestart);

      pollUntil(consumer, seen, sentAfterRestart.messageHash());
      assertThat(restarted.metrics().verdicts(ConfirmationStatus.CONFIRMED)).isEqualTo(1);
    }

    assertThat(seen).extracting(Confirmation::messageHash)
        .containsExactlyInAnyOrder(sentBeforeRestart.messageHash(), sentAfterRestart.messageHash());
    assertThat(seen).allSatisfy(c -> assertThat(c.status()).isEqualTo(ConfirmationStatus.CONFIRMED));
    Confirmation after = seen.stream().filter(c -> c.requestId().equals("req-after")).findFirst().orElseThrow();
    assertThat(after.txHash())
        .isEqualTo(Wallets.transactionOf(devnet, wallets.address(second), sentAfterRestart.messageHash())
            .orElseThrow().hash());
  }

  private static void deleteRecursively(Path dir) throws Exception {
    try (Stream<Path> paths = Files.walk(dir)) {
      for (Path p : paths.sorted(Comparator.reverseOrder()).toList()) {
        Files.delete(p);
      }
    }
  }
}
