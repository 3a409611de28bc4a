package org.tonpayouts.local;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.fail;
import static org.awaitility.Awaitility.await;

import java.io.PrintWriter;
import java.io.StringReader;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Clock;
import java.time.Duration;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.acl.AccessControlEntry;
import org.apache.kafka.common.acl.AclBinding;
import org.apache.kafka.common.acl.AclOperation;
import org.apache.kafka.common.acl.AclPermissionType;
import org.apache.kafka.common.errors.SaslAuthenticationException;
import org.apache.kafka.common.errors.TopicAuthorizationException;
import org.apache.kafka.common.resource.PatternType;
import org.apache.kafka.common.resource.ResourcePattern;
import org.apache.kafka.common.resource.ResourceType;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.tonpayouts.embedded.CertificateAuthority;
import org.tonpayouts.embedded.EmbeddedKafkaBroker;
import org.tonpayouts.embedded.SharedTestInfrastructure;
import org.tonpayouts.local.audit.TopicSnapshot;
import org.tonpayouts.local.stack.Home;
import org.tonpayouts.runtime.KafkaClientSettings;
import org.tonpayouts.runtime.PayoutsConfig;
import org.tonpayouts.runtime.ops.CheckResult;
import org.tonpayouts.runtime.ops.KafkaCheck;
import org.tonpayouts.runtime.ops.PayoutProcess;
import org.tonpayouts.runtime.ops.ProcessMetrics;
import org.tonpayouts.runtime.topics.AdminClients;
import org.tonpayouts.runtime.topics.KafkaAccessDeniedException;
import org.tonpayouts.runtime.topics.RequiredTopics;
import org.tonpayouts.runtime.topics.TopicsCommand;
import org.tonpayouts.schemas.Topics;
import org.tonpayouts.ton.wallet.Subwallets;
import picocli.CommandLine;

/**
 * The trust model of docs/production.md, enforced by a real broker: a KRaft node with a SASL_SSL
 * listener (certificates from a throw-away CA), SCRAM-SHA-512 users, Kafka's StandardAuthorizer and
 * exactly the ACLs the guide lists. The operator creates the topics with {@code topics}, streams-app
 * and chain-poller run as their own principals with the guide's SCRAM settings (secrets through
 * Kafka's {@code dir} config provider), a producer service writes requests, and every transfer
 * settles on devnet. Then the broker refuses what the guide does not grant: the producer writing
 * verdicts or reading settlements (until granted), chain-poller writing requests, streams-app
 * writing verdicts.
 */
class SecuredPipelineTest {
  private static final String GUIDE = "docs/production.md";
  private static final String SCRAM_BLOCK = "SASL_SSL with SCRAM (add to `payouts.properties`):";
  /** What the guide's example names, replaced by this test's broker, CA file and secret directories. */
  private static final String GUIDE_BOOTSTRAP = "kafka-1:9093,kafka-2:9093,kafka-3:9093";
  private static final String GUIDE_CA = "/etc/payouts/kafka-ca.pem";
  private static final String GUIDE_SECRETS = "/run/secrets/kafka";
  private static final List<String> PRINCIPALS =
      List.of("payouts-producer", "payouts-operator", "payouts-streams", "payouts-poller");
  private static final Duration DEADLINE = Duration.ofSeconds(30);

  @TempDir
  Path tmp;

  @Test
  void shouldSettleOverSaslSslWithTheDocumentedAclsAndRefuseEverythingElse() throws Exception {
    String guide = Files.readString(Home.locate().dir().resolve(GUIDE), StandardCharsets.UTF_8);
    CertificateAuthority ca = CertificateAuthority.create("payouts-test-ca");
    Path caPem = ca.writeCertificatePem(tmp.resolve("kafka-ca.pem"));

    try (EmbeddedKafkaBroker kafka = EmbeddedKafkaBroker.builder().saslSslListener(ca).start()) {
      for (String user : PRINCIPALS) {
        kafka.createScramUser(user, writeSecrets(user));
      }
      List<AclBinding> acls = DocumentedAcls.from(guide);
      kafka.admin().createAcls(acls).all().get(DEADLINE.toSeconds(), TimeUnit.SECONDS);
      Map<String, Map<String, String>> settings = new HashMap<>();
      for (String user : PRINCIPALS) {
        settings.put(user, documentedSettings(guide, kafka.secureBootstrapServers(), caPem, user));
      }

      // the operator creates the topics, then runs it again with a changed retention: describes and updates them
      Map<String, String> operator = new HashMap<>(settings.get("payouts-operator"));
      assertThat(runTopicsCommandAs(operator)).contains(Topics.ALL.size() + " created, 0 updated, 0 conflicts");
      operator.put(PayoutsConfig.TOPICS_RETENTION_MS_CONFIG, "86400000");
      assertThat(runTopicsCommandAs(operator)).contains("0 created, " + Topics.ALL.size() + " updated, 0 conflicts");

      PayoutScenario scenario = new PayoutScenario(kafka.bootstrapServers(),
          SharedTestInfrastructure.databaseName(SecuredPipelineTest.class), tmp)
          .load(3, 9)
          // the application ids the guide's ACLs name (its defaults)
          .config(PayoutsConfig.STREAMS_APPLICATION_ID_CONFIG, "ton-payouts")
          .config(PayoutsConfig.POLLER_APPLICATION_ID_CONFIG, "ton-payouts-poller")
          .producerSettings(clientSettings(settings.get("payouts-producer")))
          .whileRunning(running -> {
            runStartupChecksAsEachApp(running);
            // bad input (rejected: streams-app writes payout.rejected) and a verdict without chain-poller's MAC
            // written by the broker's super user (refused and audited: the outbox writes payout.audit)
            send(clientSettings(settings.get("payouts-producer")), Topics.PAYOUT_REQUESTS.name(), "not a request");
            send(Map.of(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, kafka.bootstrapServers()),
                Topics.PAYOUT_CONFIRMATIONS.name(), "forged verdict");
          });
      settings.get("payouts-streams").forEach(scenario::streamsConfig);
      settings.get("payouts-poller").forEach(scenario::pollerConfig);
      scenario.runAndVerify();
      await("the bad request rejected").atMost(DEADLINE).until(() ->
          !TopicSnapshot.read(kafka.bootstrapServers(), Topics.PAYOUT_REJECTED, Duration.ofSeconds(5)).isEmpty());
      await("the forged verdict audited").atMost(DEADLINE).until(() ->
          TopicSnapshot.read(kafka.bootstrapServers(), Topics.PAYOUT_AUDIT, Duration.ofSeconds(5)).stream()
              .anyMatch(audit -> audit.event().equals("VERDICT_REFUSED")));

      Map<String, Object> producer = clientSettings(settings.get("payouts-producer"));
      // an app started with another principal's credentials, or a wrong password, stops at its start-up check
      Map<String, String> wrongLogin = new HashMap<>(settings.get("payouts-producer"));
      wrongLogin.put("kafka.sasl.jaas.config", "org.apache.kafka.common.security.scram.ScramLoginModule required"
          + " username=\"payouts-producer\" password=\"not-the-password\";");
      assertThatThrownBy(() -> checkTopicAs(settings.get("payouts-producer"), Topics.PAYOUT_SUBMISSIONS.name()))
          .isInstanceOf(KafkaAccessDeniedException.class)
          .hasMessageContaining("not authorized to check topic payout.submissions")
          .hasMessageContaining("Kafka over TLS and SASL, with ACLs");
      assertThatThrownBy(() -> checkTopicAs(wrongLogin, Topics.PAYOUT_REQUESTS.name()))
          .isInstanceOf(KafkaAccessDeniedException.class)
          .hasMessageContaining("refused this process's login")
          .hasMessageNotContaining("not-the-password");
      Map<String, Object> wrongPassword = new HashMap<>(producer);
      wrongPassword.put("sasl.jaas.config", "org.apache.kafka.common.security.scram.ScramLoginModule required"
          + " username=\"payouts-producer\" password=\"not-the-password\";");
      assertThatThrownBy(() -> send(wrongPassword, Topics.PAYOUT_REQUESTS.name(), "{}"))
          .hasRootCauseInstanceOf(SaslAuthenticationException.class);
      assertWriteRefused(producer, Topics.PAYOUT_CONFIRMATIONS.name());
      assertWriteRefused(clientSettings(settings.get("payouts-poller")), Topics.PAYOUT_REQUESTS.name());
      assertWriteRefused(clientSettings(settings.get("payouts-streams")), Topics.PAYOUT_CONFIRMATIONS.name());
      assertReadRefused(producer, Topics.PAYOUT_SETTLEMENTS.name());

      kafka.admin().createAcls(List.of(new AclBinding(
          new ResourcePattern(ResourceType.TOPIC, Topics.PAYOUT_SETTLEMENTS.name(), PatternType.LITERAL),
          new AccessControlEntry("User:payouts-producer", "*", AclOperation.READ, AclPermissionType.ALLOW))))
          .all().get(DEADLINE.toSeconds(), TimeUnit.SECONDS);
      await("the producer reads settlements once granted").atMost(DEADLINE)
          .until(() -> readAll(producer, Topics.PAYOUT_SETTLEMENTS.name()) > 0);
    }
  }

  /** Writes the user's SCRAM name and password into its own secret directory, as the guide says; returns the password. */
  private String writeSecrets(String user) throws Exception {
    Path dir = Files.createDirectories(tmp.resolve("secrets").resolve(user));
    String password = UUID.randomUUID().toString();
    for (Map.Entry<String, String> secret : Map.of("username", user, "password", password).entrySet()) {
      Path file = Files.writeString(dir.resolve(secret.getKey()), secret.getValue());
      Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rw-------"));
    }
    return password;
  }

  /** The guide's SCRAM example for one principal: its {@code kafka.*} lines with this test's broker, CA and secrets. */
  private Map<String, String> documentedSettings(String guide, String bootstrap, Path caPem, String user)
      throws Exception {
    Matcher block = Pattern.compile(Pattern.quote(SCRAM_BLOCK) + "\\n\\n```\\n(.*?)```", Pattern.DOTALL)
        .matcher(guide);
    assertThat(block.find()).as("the SCRAM example of %s", GUIDE).isTrue();
    String text = block.group(1);
    assertThat(text).as("what the test replaces in the example").contains(GUIDE_BOOTSTRAP, GUIDE_CA, GUIDE_SECRETS);
    text = text.replace(GUIDE_BOOTSTRAP, bootstrap).replace(GUIDE_CA, caPem.toString())
        .replace(GUIDE_SECRETS, tmp.resolve("secrets").resolve(user).toString());
    Properties props = new Properties();
    props.load(new StringReader(text));
    Map<String, String> settings = new LinkedHashMap<>();
    props.forEach((k, v) -> settings.put(k.toString(), v.toString()));
    assertThat(settings.keySet()).as("the example holds Kafka client settings only")
        .allMatch(k -> k.startsWith(KafkaClientSettings.PREFIX));
    return settings;
  }

  /** A producer service's or a consumer's own client settings: the guide's, without the prefix. */
  private static Map<String, Object> clientSettings(Map<String, String> documented) {
    Map<String, Object> client = new HashMap<>();
    documented.forEach((k, v) -> client.put(k.substring(KafkaClientSettings.PREFIX.length()), v));
    return client;
  }

  /** The start-up check of one topic, as a process with this configuration runs it. */
  private static void checkTopicAs(Map<String, String> configuration, String topic) {
    PayoutsConfig config = new PayoutsConfig(configuration);
    try (AdminClients.Session session = AdminClients.open(config, "secured-check")) {
      RequiredTopics.verify(session.admin(), config.bootstrapServers(), List.of(topic), List.of(), DEADLINE,
          "topics");
    }
  }

  /** What each app checks at start (its topics) and in readiness (the cluster), with its own credentials. */
  private static void runStartupChecksAsEachApp(PayoutScenario.Running running) {
    try (ProcessMetrics metrics = new ProcessMetrics("secured")) {
      new PayoutProcess("streams-app", running.appConfig(), Optional.empty(), metrics, Clock.systemUTC())
          .verifyTopics(running.app().topology(), List.of(Topics.PAYOUT_AUDIT.name()));
      new PayoutProcess("chain-poller", running.pollerConfig(), Optional.empty(), metrics, Clock.systemUTC())
          .verifyTopics(running.poller().topology());
    }
    for (PayoutsConfig config : List.of(running.appConfig(), running.pollerConfig())) {
      try (AdminClients.Session session = AdminClients.open(config, "secured-health")) {
        CheckResult kafka = new KafkaCheck(session.admin(), DEADLINE).check();
        assertThat(kafka.up()).as("the Kafka readiness check: %s", kafka).isTrue();
      }
    }
  }

  /** {@code topics} as an operator runs it: a properties file with the operator's settings; what it printed. */
  private String runTopicsCommandAs(Map<String, String> operator) throws Exception {
    Path file = tmp.resolve("operator.properties");
    Properties props = new Properties();
    props.putAll(operator);
    try (var out = Files.newBufferedWriter(file)) {
      props.store(out, "the operator's payouts.properties");
    }
    StringWriter output = new StringWriter();
    CommandLine topics = new CommandLine(new TopicsCommand());
    topics.setOut(new PrintWriter(output));
    topics.setErr(new PrintWriter(output));

    int code = topics.execute("--config", file.toString(), "--partitions", "3");

    assertThat(code).as("topics as payouts-operator:\n%s", output).isZero();
    return output.toString();
  }

  private static void assertWriteRefused(Map<String, Object> settings, String topic) {
    try {
      send(settings, topic, "{}");
      fail("the write to %s was not refused", topic);
    } catch (Exception e) {
      assertThat(authorizationFailure(e)).as("why the write to %s failed: %s", topic, e).isTrue();
    }
  }

  /** Writes one record under the first payout wallet's key and waits for the broker's answer. */
  private static void send(Map<String, Object> settings, String topic, String value) {
    Map<String, Object> props = new HashMap<>(settings);
    props.put(ProducerConfig.MAX_BLOCK_MS_CONFIG, 10_000);
    try (KafkaProducer<byte[], byte[]> producer =
        new KafkaProducer<>(props, new ByteArraySerializer(), new ByteArraySerializer())) {
      producer.send(new ProducerRecord<>(topic, Topics.walletKey(Subwallets.DEFAULT_SUBWALLET_ID)
          .getBytes(StandardCharsets.UTF_8), value.getBytes(StandardCharsets.UTF_8)))
          .get(DEADLINE.toSeconds(), TimeUnit.SECONDS);
    } catch (Exception e) {
      throw new IllegalStateException("could not write to " + topic, e);
    }
  }

  private static void assertReadRefused(Map<String, Object> settings, String topic) {
    try {
      readAll(settings, topic);
      fail("read %s without a grant", topic);
    } catch (Exception e) {
      assertThat(authorizationFailure(e)).as("why the read of %s failed: %s", topic, e).isTrue();
    }
  }

  /** Reads {@code topic} from the start (no group: only the topic's ACL counts); how many records one poll returned. */
  private static int readAll(Map<String, Object> settings, String topic) {
    Map<String, Object> props = new HashMap<>(settings);
    props.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed");
    props.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false);
    try (KafkaConsumer<byte[], byte[]> consumer =
        new KafkaConsumer<>(props, new ByteArrayDeserializer(), new ByteArrayDeserializer())) {
      List<TopicPartition> partitions = List.of(new TopicPartition(topic, 0), new TopicPartition(topic, 1),
          new TopicPartition(topic, 2));
      consumer.assign(partitions);
      consumer.seekToBeginning(partitions);
      return consumer.poll(Duration.ofSeconds(5)).count();
    }
  }

  private static boolean authorizationFailure(Throwable e) {
    for (Throwable t = e; t != null; t = t.getCause()) {
      if (t instanceof TopicAuthorizationException) {
        return true;
      }
    }
    return false;
  }
}
