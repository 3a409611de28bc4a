package org.tonpayouts.local;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.networknt.schema.JsonSchema;
import java.io.IOException;
import java.io.StringReader;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.tonpayouts.devnet.Devnet;
import org.tonpayouts.local.stack.Home;
import org.tonpayouts.runtime.PayoutsConfig;
import org.tonpayouts.schemas.Json;
import org.tonpayouts.schemas.PayoutRequestValidator;
import org.tonpayouts.schemas.Topic;
import org.tonpayouts.schemas.Topics;
import org.tonpayouts.schemas.ValidationResult;
import org.tonpayouts.streams.validation.DestinationPolicy;
import org.tonpayouts.streams.validation.RequestRules;
import org.tonpayouts.ton.address.TonAddress;

/**
 * The examples of the README and the docs work as written: every topic's example message in
 * docs/topics-and-events.md passes that topic's serde and JSON Schema (requests also streams-app's
 * rules), the console-producer lines (the README's first payout and the topics page) carry a valid
 * request, the sample properties files (the README and docs/production.md) and the guide's Kafka client
 * examples load, and the devnet fund
 * call of docs/local-stack.md funds.
 */
class ReadmeExamplesTest {
  private static final Pattern EXAMPLE = Pattern.compile("^Example `(payout\\.[a-z.]+)` value \\(key `([^`]+)`");
  private static final String README = "README.md";
  private static final String TOPICS = "docs/topics-and-events.md";
  private static final String PRODUCTION = "docs/production.md";
  private static final String LOCAL_STACK = "docs/local-stack.md";
  /** Each page's text by its path in the checkout. */
  private static final Map<String, String> PAGES = new HashMap<>();

  /** One example message: topic, key and the JSON of the fenced block that follows the line naming them. */
  record Example(String topic, String key, String json) {}

  @BeforeAll
  static void read() throws IOException {
    for (String path : List.of(README, TOPICS, PRODUCTION, LOCAL_STACK)) {
      PAGES.put(path, Files.readString(Home.locate().dir().resolve(path), StandardCharsets.UTF_8));
    }
  }

  static List<Example> examples() {
    List<Example> examples = new ArrayList<>();
    List<String> lines = PAGES.get(TOPICS).lines().toList();
    for (int i = 0; i < lines.size(); i++) {
      Matcher m = EXAMPLE.matcher(lines.get(i));
      if (m.find()) {
        int open = i + 1;
        while (!lines.get(open).startsWith("```")) {
          open++;
        }
        int close = open + 1;
        while (!lines.get(close).startsWith("```")) {
          close++;
        }
        examples.add(new Example(m.group(1), m.group(2), String.join("\n", lines.subList(open + 1, close))));
      }
    }
    return examples;
  }

  @Test
  void shouldShowOneValidMessageForEveryTopic() throws Exception {
    List<Example> examples = examples();

    assertThat(examples).extracting(Example::topic)
        .containsExactlyInAnyOrderElementsOf(Topics.ALL.stream().map(Topic::name).toList());
    for (Example example : examples) {
      Topic<String, ?> topic = Topics.ALL.stream().filter(t -> t.name().equals(example.topic())).findFirst()
          .orElseThrow();
      byte[] bytes = example.json().getBytes(StandardCharsets.UTF_8);
      assertThat(Topics.walletKey(Long.parseLong(example.key()))).isEqualTo(example.key());
      Object value = topic.valueSerde().deserializer().deserialize(topic.name(), bytes);
      assertThat(value).as(example.topic()).isNotNull();
      JsonSchema schema = PayoutRequestValidator.loadSchema(topic.schemaResource());
      assertThat(schema.validate(Json.mapper().readTree(bytes))).as("%s against its schema", example.topic())
          .isEmpty();
      if (topic == Topics.PAYOUT_REQUESTS) {
        assertValidRequest(example.key(), example.json());
      }
      for (JsonNode address : Json.mapper().readTree(bytes).findValues("destination")) {
        assertThat(TonAddress.isValid(address.asText())).as("destination %s", address.asText()).isTrue();
      }
    }
  }

  @Test
  void shouldProduceAValidRequestWithTheConsoleProducerLine() {
    for (String page : List.of(README, TOPICS)) {
      Matcher line = Pattern.compile("echo '([^|']+)\\|([^']+)' \\\\\\n\\s*\\| kafka-console-producer\\.sh")
          .matcher(PAGES.get(page));

      assertThat(line.find()).as("the console producer example of %s", page).isTrue();
      assertValidRequest(line.group(1), line.group(2));
    }
  }

  @Test
  void shouldLoadTheSamplePropertiesFile() throws IOException {
    for (String page : List.of(README, PRODUCTION)) {
      Matcher block = Pattern.compile("A minimal `payouts.properties`:\\n\\n```\\n(.*?)```", Pattern.DOTALL)
          .matcher(PAGES.get(page));
      assertThat(block.find()).as("the sample properties file of %s", page).isTrue();
      Properties props = new Properties();
      props.load(new StringReader(block.group(1)));
      Map<String, Object> values = new HashMap<>();
      props.forEach((k, v) -> values.put(k.toString(), v));

      PayoutsConfig config = new PayoutsConfig(values);

      assertThat(config.bootstrapServers()).isEqualTo("kafka-1:9092,kafka-2:9092,kafka-3:9092");
      assertThat(config.requiredTonNetwork()).as("the network both apps require, in %s", page)
          .isEqualTo(org.tonpayouts.ton.network.TonNetwork.MAINNET);
      assertThat(values.keySet()).allMatch(PayoutsConfig.CONFIG.names()::contains);
    }
  }

  @Test
  void shouldLoadEveryKafkaClientExampleOfTheProductionGuide(@TempDir Path tmp) throws Exception {
    // the examples' secrets, where they say (one file per value, readable by the owner only)
    Path secrets = Files.createDirectories(tmp.resolve("secrets"));
    for (String name : List.of("username", "password", "client-secret")) {
      Files.writeString(secrets.resolve(name), "example-" + name);
      Files.setPosixFilePermissions(secrets.resolve(name), PosixFilePermissions.fromString("rw-------"));
    }
    Matcher block = Pattern.compile("```\\n(kafka\\.bootstrap\\.servers=.*?)```", Pattern.DOTALL)
        .matcher(PAGES.get(PRODUCTION));
    int examples = 0;
    while (block.find()) {
      if (!block.group(1).contains("kafka.security.protocol=")) {
        continue; // the minimal properties file, loaded above
      }
      Properties props = new Properties();
      props.load(new StringReader(block.group(1).replace("/run/secrets/kafka", secrets.toString())));
      Map<String, Object> values = new HashMap<>();
      props.forEach((k, v) -> values.put(k.toString(), v));

      PayoutsConfig config = new PayoutsConfig(values);

      assertThat(config.kafkaClients().keys()).as("example %s", values.keySet()).contains("security.protocol",
          "sasl.mechanism", "sasl.jaas.config");
      examples++;
    }
    assertThat(examples).as("the SCRAM, cloud and MSK examples").isEqualTo(3);
  }

  @Test
  void shouldFundAWalletWithTheDocumentedDevnetCall() throws Exception {
    Matcher call = Pattern.compile("curl -s -X POST http://127\\.0\\.0\\.1:8081/admin/fund .*?-d '([^']+)'",
        Pattern.DOTALL).matcher(PAGES.get(LOCAL_STACK));
    assertThat(call.find()).isTrue();
    JsonNode body = Json.mapper().readTree(call.group(1));
    try (Devnet devnet = Devnet.builder().blockInterval(Duration.ofMillis(50)).start()) {
      HttpResponse<String> response = HttpClient.newHttpClient().send(HttpRequest.newBuilder(
              URI.create(devnet.baseUrl().toString().replaceAll("/$", "") + "/admin/fund"))
              .header("Content-Type", "application/json")
              .POST(HttpRequest.BodyPublishers.ofString(call.group(1))).build(),
          HttpResponse.BodyHandlers.ofString());

      assertThat(response.statusCode()).as(response.body()).isEqualTo(200);
      assertThat(devnet.balance(TonAddress.parse(body.get("address").asText())))
          .isEqualTo(Long.parseLong(body.get("amount").asText()));
    }
  }

  private static void assertValidRequest(String key, String json) {
    ValidationResult result = PayoutRequestValidator.shared().validate(json.getBytes(StandardCharsets.UTF_8));
    assertThat(result.isValid()).as("%s", result).isTrue();
    PayoutsConfig defaults = PayoutsConfig.load(Optional.empty(), Map.of());
    // the README's requests name no wallet key, so no own subwallet: the rest of intake applies
    assertThat(RequestRules.from(defaults, DestinationPolicy.none()).problems(key, result.request())).isEmpty();
  }
}
