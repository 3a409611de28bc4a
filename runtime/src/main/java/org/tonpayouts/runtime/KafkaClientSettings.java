package org.tonpayouts.runtime;

import java.nio.file.Path;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.common.config.ConfigException;
import org.apache.kafka.common.config.provider.DirectoryConfigProvider;
import org.apache.kafka.common.config.provider.FileConfigProvider;
import org.apache.kafka.streams.StreamsConfig;
import org.tonpayouts.ton.keys.SecretFiles;

/**
 * The Kafka client settings a deployment adds to every client the payout processes create (both
 * apps' Kafka Streams, the start-up and health admin clients, {@code payouts topics}, streams-app's
 * outbox producer): TLS, SASL and Kafka's config providers, given as {@code kafka.<client key>}
 * (e.g. {@code kafka.security.protocol=SASL_SSL}) or {@code PAYOUTS_KAFKA_SECURITY_PROTOCOL}.
 *
 * <p>Only real client keys pass (the names of Kafka's own producer, consumer, admin and Streams
 * configurations, and {@code config.providers.*}), so a typo stops the process like any unknown
 * key. Keys the service sets itself are refused with the reason: exactly-once, the serdes and the
 * exception handlers hold the payout invariants, the application ids name the groups, state and
 * transactional ids, and the tuned ones would be silently overridden by the service's own value.
 *
 * <p>Values stay as written: {@code ${file:...}}, {@code ${dir:...}} and {@code ${env:...}}
 * references are resolved by each Kafka client from the {@code config.providers} given here, so no
 * secret needs to sit in the properties file; Kafka's clients print password-typed values as
 * {@code [hidden]}, and {@link #toString()} names keys only.
 */
public final class KafkaClientSettings {
  /** The prefix of these keys in the payout configuration. */
  public static final String PREFIX = "kafka.";
  private static final String PROVIDERS = "config.providers";
  /** {@code ${provider:path:key}}, as Kafka's ConfigTransformer reads it (references without a path name no file). */
  private static final Pattern REFERENCE = Pattern.compile("\\$\\{([^}]*?):([^}]*?):([^}]*?)}");
  /** Kafka Streams' per-client prefixes: not passed through (every setting here applies to all clients). */
  private static final Set<String> CLIENT_PREFIXES = Set.of(StreamsConfig.PRODUCER_PREFIX,
      StreamsConfig.CONSUMER_PREFIX, StreamsConfig.MAIN_CONSUMER_PREFIX, StreamsConfig.RESTORE_CONSUMER_PREFIX,
      StreamsConfig.GLOBAL_CONSUMER_PREFIX, StreamsConfig.ADMIN_CLIENT_PREFIX, StreamsConfig.TOPIC_PREFIX);
  private static final Set<String> PRODUCER = ProducerConfig.configNames();
  private static final Set<String> CONSUMER = ConsumerConfig.configNames();
  private static final Set<String> ADMIN = AdminClientConfig.configNames();
  private static final Set<String> STREAMS = StreamsConfig.configDef().names();
  /** Every key a client of this project knows. */
  private static final Set<String> KNOWN = known();
  /** Keys the service sets itself, each with why it is not the deployment's to change. */
  static final Map<String, String> OWNED = owned();

  private static final KafkaClientSettings NONE = new KafkaClientSettings(Map.of());

  private final Map<String, String> settings;

  private KafkaClientSettings(Map<String, String> settings) {
    this.settings = Collections.unmodifiableMap(new TreeMap<>(settings));
  }

  /** No added settings: a plaintext cluster without authentication (the local stack). */
  public static KafkaClientSettings none() {
    return NONE;
  }

  /**
   * The {@code kafka.*} keys of a payout configuration (except those {@code payoutKeys} defines
   * itself, such as {@code kafka.bootstrap.servers}), checked.
   *
   * @throws ConfigException naming the first refused or unknown key and why (never its value)
   */
  public static KafkaClientSettings from(Map<String, ?> configuration, Set<String> payoutKeys) {
    Map<String, String> settings = new LinkedHashMap<>();
    configuration.forEach((key, value) -> {
      if (key.startsWith(PREFIX) && !payoutKeys.contains(key) && value != null) {
        String clientKey = key.substring(PREFIX.length());
        check(key, clientKey);
        settings.put(clientKey, value.toString());
      }
    });
    if (settings.isEmpty()) {
      return NONE;
    }
    KafkaClientSettings checked = new KafkaClientSettings(settings);
    checked.checkSecretFiles();
    return checked;
  }

  /**
   * Refuses a secret file that a {@code ${file:...}} or {@code ${dir:...}} reference names and that
   * others on the machine may read (as every secret file of the service, {@link SecretFiles}); Kafka's
   * own providers read any file they may.
   */
  private void checkSecretFiles() {
    settings.forEach((key, value) -> {
      Matcher reference = REFERENCE.matcher(value);
      while (reference.find()) {
        String providerClass = settings.getOrDefault(PROVIDERS + "." + reference.group(1) + ".class", "");
        String path = reference.group(2);
        try {
          if (providerClass.equals(FileConfigProvider.class.getName())) {
            SecretFiles.read(PREFIX + key, Path.of(path));
          } else if (providerClass.equals(DirectoryConfigProvider.class.getName())) {
            SecretFiles.read(PREFIX + key, Path.of(path).resolve(reference.group(3)));
          }
        } catch (IllegalArgumentException e) {
          throw PayoutsConfig.configException(e);
        }
      }
    });
  }

  /** Checks one client key ({@code key} as the configuration spells it, for the message). */
  private static void check(String key, String clientKey) {
    String owned = OWNED.get(clientKey);
    if (owned != null) {
      throw new ConfigException(key + " is refused: " + owned);
    }
    if (clientKey.equals(PROVIDERS) || clientKey.startsWith(PROVIDERS + ".")) {
      return;
    }
    for (String prefix : CLIENT_PREFIXES) {
      if (clientKey.startsWith(prefix)) {
        throw new ConfigException(key + " is refused: per-client prefixes are not passed through; give the setting"
            + " without '" + prefix + "' and it applies to every Kafka client of the process");
      }
    }
    if (!KNOWN.contains(clientKey)) {
      throw new ConfigException("unknown configuration key '" + key + "': '" + clientKey + "' is not a Kafka"
          + " producer, consumer, admin or Streams setting (after '" + PREFIX + "' comes a Kafka client key, e.g. "
          + PREFIX + "security.protocol)");
    }
  }

  /**
   * The configuration key an environment variable {@code PAYOUTS_KAFKA_*} sets: the client key
   * whose {@link PayoutsConfig#envName} it is. {@code config.providers.<name>.class} and
   * {@code config.providers.<name>.param.<param>} are found for the provider names listed in
   * {@code providers} (the value of {@code kafka.config.providers}, when set).
   */
  public static Optional<String> keyOfEnv(String envName, Optional<String> providers) {
    String prefix = PayoutsConfig.envName(PREFIX);
    if (!envName.startsWith(prefix)) {
      return Optional.empty();
    }
    for (String clientKey : KNOWN) {
      if (PayoutsConfig.envName(PREFIX + clientKey).equals(envName)) {
        return Optional.of(PREFIX + clientKey);
      }
    }
    if (PayoutsConfig.envName(PREFIX + PROVIDERS).equals(envName)) {
      return Optional.of(PREFIX + PROVIDERS);
    }
    for (String provider : providers.map(p -> p.split(",")).orElse(new String[0])) {
      String name = provider.strip();
      String classKey = PREFIX + PROVIDERS + "." + name + ".class";
      if (PayoutsConfig.envName(classKey).equals(envName)) {
        return Optional.of(classKey);
      }
      String paramEnv = PayoutsConfig.envName(PREFIX + PROVIDERS + "." + name + ".param.");
      if (envName.startsWith(paramEnv) && envName.length() > paramEnv.length()) {
        // provider parameters are lower-case dotted words (allowed.paths, allowlist.pattern)
        String param = envName.substring(paramEnv.length()).toLowerCase(Locale.ROOT).replace('_', '.');
        return Optional.of(PREFIX + PROVIDERS + "." + name + ".param." + param);
      }
    }
    return Optional.empty();
  }

  /** The settings for a producer: those a producer knows, and the config providers. */
  public Map<String, Object> forProducer() {
    return select(PRODUCER);
  }

  /** The settings for a consumer. */
  public Map<String, Object> forConsumer() {
    return select(CONSUMER);
  }

  /** The settings for an admin client. */
  public Map<String, Object> forAdmin() {
    return select(ADMIN);
  }

  /**
   * The settings for Kafka Streams, unprefixed: Kafka Streams hands each to its producers, consumers
   * and admin client as they know it.
   */
  public Map<String, Object> forStreams() {
    Set<String> all = new TreeSet<>(STREAMS);
    all.addAll(PRODUCER);
    all.addAll(CONSUMER);
    all.addAll(ADMIN);
    return select(all);
  }

  public boolean isEmpty() {
    return settings.isEmpty();
  }

  /** The client keys given (never their values). */
  public Set<String> keys() {
    return settings.keySet();
  }

  private Map<String, Object> select(Set<String> names) {
    Map<String, Object> selected = new TreeMap<>();
    settings.forEach((key, value) -> {
      if (names.contains(key) || key.equals(PROVIDERS) || key.startsWith(PROVIDERS + ".")) {
        selected.put(key, value);
      }
    });
    return selected;
  }

  /** Keys only: values may be secrets. */
  @Override
  public String toString() {
    return "KafkaClientSettings" + settings.keySet();
  }

  private static Set<String> known() {
    Set<String> known = new TreeSet<>(PRODUCER);
    known.addAll(CONSUMER);
    known.addAll(ADMIN);
    known.addAll(STREAMS);
    return Collections.unmodifiableSet(known);
  }

  private static Map<String, String> owned() {
    Map<String, String> owned = new TreeMap<>();
    String ownKey = "the service has its own key for it: ";
    owned.put(StreamsConfig.BOOTSTRAP_SERVERS_CONFIG, ownKey + PayoutsConfig.KAFKA_BOOTSTRAP_SERVERS_CONFIG);
    owned.put(StreamsConfig.APPLICATION_ID_CONFIG, ownKey + PayoutsConfig.STREAMS_APPLICATION_ID_CONFIG + " and "
        + PayoutsConfig.POLLER_APPLICATION_ID_CONFIG + " (they name the consumer groups, the internal topics and the"
        + " transactional ids the ACLs grant)");
    owned.put(StreamsConfig.STATE_DIR_CONFIG, ownKey + PayoutsConfig.STREAMS_STATE_DIR_CONFIG);
    owned.put(StreamsConfig.COMMIT_INTERVAL_MS_CONFIG, ownKey + PayoutsConfig.STREAMS_COMMIT_INTERVAL_MS_CONFIG);
    owned.put(StreamsConfig.NUM_STREAM_THREADS_CONFIG, ownKey + PayoutsConfig.STREAMS_NUM_THREADS_CONFIG);
    owned.put(ConsumerConfig.SESSION_TIMEOUT_MS_CONFIG, ownKey + PayoutsConfig.STREAMS_SESSION_TIMEOUT_MS_CONFIG);
    owned.put(ConsumerConfig.HEARTBEAT_INTERVAL_MS_CONFIG,
        "derived from " + PayoutsConfig.STREAMS_SESSION_TIMEOUT_MS_CONFIG + " (a third of it, at most 3 s)");
    owned.put(ConsumerConfig.GROUP_INSTANCE_ID_CONFIG, ownKey + PayoutsConfig.STREAMS_GROUP_INSTANCE_ID_CONFIG);
    owned.put(StreamsConfig.APPLICATION_SERVER_CONFIG, "streams-app derives it from " + PayoutsConfig.ADMIN_PORT_CONFIG);

    String exactlyOnce = "the payout invariants rest on exactly-once processing (transactions, idempotent writes,"
        + " read_committed reads, offsets committed with the output); the service sets it";
    for (String key : new String[] {StreamsConfig.PROCESSING_GUARANTEE_CONFIG, ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG,
        ProducerConfig.TRANSACTIONAL_ID_CONFIG, ProducerConfig.ACKS_CONFIG,
        ProducerConfig.RETRIES_CONFIG, ProducerConfig.MAX_IN_FLIGHT_REQUESTS_PER_CONNECTION,
        ConsumerConfig.ISOLATION_LEVEL_CONFIG, ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG,
        ConsumerConfig.AUTO_COMMIT_INTERVAL_MS_CONFIG, ConsumerConfig.GROUP_ID_CONFIG,
        ConsumerConfig.AUTO_OFFSET_RESET_CONFIG}) {
      owned.put(key, exactlyOnce);
    }
    String records = "the topology owns how records are read, keyed and handled (serdes, keying by wallet,"
        + " exception handlers, timestamps); changing it breaks the payout flow";
    for (String key : new String[] {ProducerConfig.KEY_SERIALIZER_CLASS_CONFIG,
        ProducerConfig.VALUE_SERIALIZER_CLASS_CONFIG, ConsumerConfig.KEY_DESERIALIZER_CLASS_CONFIG,
        ConsumerConfig.VALUE_DESERIALIZER_CLASS_CONFIG, StreamsConfig.DEFAULT_KEY_SERDE_CLASS_CONFIG,
        StreamsConfig.DEFAULT_VALUE_SERDE_CLASS_CONFIG, ProducerConfig.PARTITIONER_CLASS_CONFIG,
        StreamsConfig.DESERIALIZATION_EXCEPTION_HANDLER_CLASS_CONFIG,
        StreamsConfig.PRODUCTION_EXCEPTION_HANDLER_CLASS_CONFIG, StreamsConfig.PROCESSING_EXCEPTION_HANDLER_CLASS_CONFIG,
        StreamsConfig.DEFAULT_TIMESTAMP_EXTRACTOR_CLASS_CONFIG, StreamsConfig.TOPOLOGY_OPTIMIZATION_CONFIG,
        StreamsConfig.DEFAULT_DSL_STORE_CONFIG, StreamsConfig.DSL_STORE_SUPPLIERS_CLASS_CONFIG}) {
      owned.put(key, records);
    }
    // deprecated spellings Kafka Streams still reads
    owned.put("default.deserialization.exception.handler", records);
    owned.put("default.production.exception.handler", records);
    String tuned = "the service sets it for the payout loop's latency and its own waits (StreamsProperties,"
        + " AdminClients, OutboxPublisher say why), so a value here would not apply";
    for (String key : new String[] {StreamsConfig.POLL_MS_CONFIG, StreamsConfig.MAX_TASK_IDLE_MS_CONFIG,
        ConsumerConfig.FETCH_MAX_WAIT_MS_CONFIG, ProducerConfig.LINGER_MS_CONFIG,
        ConsumerConfig.MAX_PARTITION_FETCH_BYTES_CONFIG, ConsumerConfig.MAX_POLL_RECORDS_CONFIG,
        ProducerConfig.MAX_BLOCK_MS_CONFIG, ProducerConfig.DELIVERY_TIMEOUT_MS_CONFIG,
        AdminClientConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, AdminClientConfig.REQUEST_TIMEOUT_MS_CONFIG,
        AdminClientConfig.CLIENT_ID_CONFIG}) {
      owned.put(key, tuned);
    }
    return Collections.unmodifiableMap(owned);
  }
}
