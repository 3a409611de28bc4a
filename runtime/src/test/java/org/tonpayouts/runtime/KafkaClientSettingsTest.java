package org.tonpayouts.runtime;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.common.config.ConfigException;
import org.apache.kafka.common.config.SaslConfigs;
import org.apache.kafka.common.config.types.Password;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.streams.StreamsConfig;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The {@code kafka.*} client settings: what passes, what is refused and why, and where they end up. */
class KafkaClientSettingsTest {
  @TempDir
  Path tmp;

  private static PayoutsConfig config(Map<String, String> values) {
    return new PayoutsConfig(values);
  }

  @Test
  void shouldRefuseWhatTheServiceOwnsNamingTheKeyAndWhyButNeverTheValue() {
    assertThatThrownBy(() -> config(Map.of("kafka.processing.guarantee", "at_least_once")))
        .isInstanceOf(ConfigException.class)
        .hasMessageStartingWith("kafka.processing.guarantee is refused: ")
        .hasMessageContaining("exactly-once")
        .hasMessageNotContaining("at_least_once");
    assertThatThrownBy(() -> config(Map.of("kafka.application.id", "other")))
        .hasMessageContaining(PayoutsConfig.STREAMS_APPLICATION_ID_CONFIG);
    assertThatThrownBy(() -> config(Map.of("kafka.bootstrap.servers.x", "h:1")))
        .hasMessageContaining("unknown configuration key 'kafka.bootstrap.servers.x'");
    for (String owned : new String[] {"kafka.enable.idempotence", "kafka.transactional.id", "kafka.isolation.level",
        "kafka.enable.auto.commit", "kafka.group.id", "kafka.value.serializer", "kafka.key.deserializer",
        "kafka.default.value.serde", "kafka.acks", "kafka.state.dir", "kafka.linger.ms"}) {
      assertThatThrownBy(() -> config(Map.of(owned, "secret-looking-value")))
          .as(owned).isInstanceOf(ConfigException.class)
          .hasMessageStartingWith(owned + " is refused: ")
          .hasMessageNotContaining("secret-looking-value");
    }
  }

  @Test
  void shouldAcceptTheSettingsOfOauthBearerAndOfAnOwnLoginModule() {
    KafkaClientSettings oauth = config(Map.of("kafka.security.protocol", "SASL_SSL",
        "kafka.sasl.mechanism", "OAUTHBEARER",
        "kafka.sasl.login.callback.handler.class",
        "org.apache.kafka.common.security.oauthbearer.OAuthBearerLoginCallbackHandler",
        "kafka.sasl.oauthbearer.token.endpoint.url", "https://idp.example.com/oauth2/token",
        "kafka.sasl.jaas.config", "org.apache.kafka.common.security.oauthbearer.OAuthBearerLoginModule required"
            + " clientId=\"payouts\" clientSecret=\"${env:KAFKA_CLIENT_SECRET}\";")).kafkaClients();
    KafkaClientSettings iam = config(Map.of("kafka.sasl.mechanism", "AWS_MSK_IAM",
        "kafka.sasl.client.callback.handler.class", "software.amazon.msk.auth.iam.IAMClientCallbackHandler"))
        .kafkaClients();

    assertThat(oauth.forAdmin()).containsKeys("sasl.login.callback.handler.class",
        "sasl.oauthbearer.token.endpoint.url", "sasl.jaas.config");
    assertThat(iam.forStreams()).containsKey("sasl.client.callback.handler.class");
  }

  @Test
  void shouldRefuseAKeyNoKafkaClientKnowsAndPerClientPrefixes() {
    assertThatThrownBy(() -> config(Map.of("kafka.securty.protocol", "SASL_SSL")))
        .isInstanceOf(ConfigException.class)
        .hasMessageContaining("unknown configuration key 'kafka.securty.protocol'")
        .hasMessageContaining("kafka.security.protocol");
    assertThatThrownBy(() -> config(Map.of("kafka.producer.compression.type", "zstd")))
        .hasMessageContaining("per-client prefixes are not passed through");
  }

  @Test
  void shouldReadTheSettingsFromTheFileAndTheEnvironmentAndRefuseAnUnknownVariable() throws Exception {
    Path file = Files.writeString(tmp.resolve("payouts.properties"), """
        kafka.bootstrap.servers=kafka-1:9093
        kafka.security.protocol=SASL_SSL
        kafka.config.providers=dir
        """);
    Map<String, String> env = Map.of(
        "PAYOUTS_KAFKA_SASL_MECHANISM", "SCRAM-SHA-512",
        "PAYOUTS_KAFKA_SSL_TRUSTSTORE_TYPE", "PEM",
        "PAYOUTS_KAFKA_CONFIG_PROVIDERS_DIR_CLASS", "org.apache.kafka.common.config.provider.DirectoryConfigProvider",
        "PAYOUTS_KAFKA_CONFIG_PROVIDERS_DIR_PARAM_ALLOWED_PATHS", "/run/secrets/kafka",
        "PAYOUTS_OTHER_THING", "ignored as before");

    PayoutsConfig config = PayoutsConfig.load(Optional.of(file), env);

    assertThat(config.bootstrapServers()).isEqualTo("kafka-1:9093");
    assertThat(config.kafkaClients().forAdmin()).containsEntry("security.protocol", "SASL_SSL")
        .containsEntry("sasl.mechanism", "SCRAM-SHA-512")
        .containsEntry("ssl.truststore.type", "PEM")
        .containsEntry("config.providers", "dir")
        .containsEntry("config.providers.dir.class", "org.apache.kafka.common.config.provider.DirectoryConfigProvider")
        .containsEntry("config.providers.dir.param.allowed.paths", "/run/secrets/kafka")
        .doesNotContainKey("bootstrap.servers");
    assertThatThrownBy(() -> PayoutsConfig.load(Optional.empty(), Map.of("PAYOUTS_KAFKA_SECURTY_PROTOCOL", "SSL")))
        .isInstanceOf(ConfigException.class)
        .hasMessageContaining("unknown environment variable PAYOUTS_KAFKA_SECURTY_PROTOCOL");
  }

  @Test
  void shouldGiveEachClientTheSettingsItKnows() {
    PayoutsConfig config = config(Map.of("kafka.security.protocol", "SASL_SSL", "kafka.sasl.mechanism", "PLAIN",
        "kafka.compression.type", "zstd", "kafka.num.standby.replicas", "1"));
    KafkaClientSettings kafka = config.kafkaClients();

    assertThat(kafka.forProducer()).containsEntry("compression.type", "zstd").containsKey("security.protocol")
        .doesNotContainKey("num.standby.replicas");
    assertThat(kafka.forAdmin()).containsKey("security.protocol").doesNotContainKey("compression.type");
    assertThat(kafka.forConsumer()).containsKey("sasl.mechanism").doesNotContainKey("compression.type");

    // Kafka Streams takes them unprefixed and hands them to its producers, consumers and admin client
    StreamsConfig streams = new StreamsConfig(StreamsProperties.base(config, "app"));
    assertThat(streams.getInt(StreamsConfig.NUM_STANDBY_REPLICAS_CONFIG)).isEqualTo(1);
    assertThat(streams.getProducerConfigs("client")).containsEntry("security.protocol", "SASL_SSL")
        .containsEntry("compression.type", "zstd");
    assertThat(streams.getMainConsumerConfigs("app", "client", 0)).containsEntry("sasl.mechanism", "PLAIN")
        .containsEntry("isolation.level", "read_committed"); // exactly-once, whatever was added
    assertThat(streams.getRestoreConsumerConfigs("client")).containsEntry("security.protocol", "SASL_SSL");
    assertThat(streams.getAdminConfigs("client")).containsEntry("security.protocol", "SASL_SSL");
  }

  @Test
  void shouldLeaveSecretsInAFileForKafkasConfigProviderToResolve() throws Exception {
    Path secrets = Files.writeString(tmp.resolve("kafka-secrets.properties"), "password=s3cret-from-file\n");
    Files.setPosixFilePermissions(secrets, PosixFilePermissions.fromString("rw-------"));
    Map<String, String> values = new HashMap<>();
    values.put("kafka.security.protocol", "SASL_SSL");
    values.put("kafka.sasl.mechanism", "PLAIN");
    values.put("kafka.config.providers", "file");
    values.put("kafka.config.providers.file.class", "org.apache.kafka.common.config.provider.FileConfigProvider");
    values.put("kafka.sasl.jaas.config", "org.apache.kafka.common.security.plain.PlainLoginModule required"
        + " username=\"payouts-streams\" password=\"${file:" + secrets + ":password}\";");
    PayoutsConfig config = config(values);

    // the configuration holds the reference, not the secret, and prints neither
    assertThat(config.kafkaClients().forProducer().get(SaslConfigs.SASL_JAAS_CONFIG).toString())
        .doesNotContain("s3cret-from-file");
    assertThat(config.kafkaClients().toString()).doesNotContain("s3cret", secrets.toString());

    // each client resolves it: a producer, an admin client, and Kafka Streams for all of its clients
    Map<String, Object> producer = new HashMap<>(config.kafkaClients().forProducer());
    producer.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, config.bootstrapServers());
    producer.put(ProducerConfig.KEY_SERIALIZER_CLASS_CONFIG, ByteArraySerializer.class);
    producer.put(ProducerConfig.VALUE_SERIALIZER_CLASS_CONFIG, ByteArraySerializer.class);
    assertThat(new ProducerConfig(producer).getPassword(SaslConfigs.SASL_JAAS_CONFIG).value())
        .contains("password=\"s3cret-from-file\"");
    Map<String, Object> admin = new HashMap<>(config.kafkaClients().forAdmin());
    admin.put(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, config.bootstrapServers());
    assertThat(new AdminClientConfig(admin).getPassword(SaslConfigs.SASL_JAAS_CONFIG).value())
        .contains("password=\"s3cret-from-file\"");
    Properties streams = StreamsProperties.base(config, "app");
    Object jaas = new StreamsConfig(streams).getProducerConfigs("client").get(SaslConfigs.SASL_JAAS_CONFIG);
    assertThat(jaas instanceof Password p ? p.value() : jaas.toString()).contains("password=\"s3cret-from-file\"");
  }

  @Test
  void shouldRefuseASecretFileOthersMayRead() throws Exception {
    Path dir = Files.createDirectories(tmp.resolve("secrets"));
    Path password = Files.writeString(dir.resolve("password"), "s3cret");
    Files.setPosixFilePermissions(password, PosixFilePermissions.fromString("rw-r--r--"));
    Map<String, String> values = Map.of(
        "kafka.config.providers", "dir",
        "kafka.config.providers.dir.class", "org.apache.kafka.common.config.provider.DirectoryConfigProvider",
        "kafka.sasl.jaas.config", "org.apache.kafka.common.security.scram.ScramLoginModule required"
            + " username=\"payouts-streams\" password=\"${dir:" + dir + ":password}\";");

    assertThatThrownBy(() -> config(values))
        .isInstanceOf(ConfigException.class)
        .hasMessageContaining("kafka.sasl.jaas.config '" + password + "'")
        .hasMessageContaining("chmod 600 " + password)
        .hasMessageNotContaining("s3cret");

    Files.setPosixFilePermissions(password, PosixFilePermissions.fromString("rw-------"));
    assertThat(config(values).kafkaClients().keys()).contains("sasl.jaas.config");
  }
}
