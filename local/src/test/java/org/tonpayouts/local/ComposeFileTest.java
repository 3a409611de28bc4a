package org.tonpayouts.local;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.tonpayouts.local.stack.Home;
import org.tonpayouts.runtime.PayoutsConfig;
import org.tonpayouts.schemas.PayoutRequestValidator;
import org.tonpayouts.schemas.ValidationResult;
import org.tonpayouts.streams.validation.DestinationPolicy;
import org.tonpayouts.streams.validation.RequestRules;
import org.tonpayouts.ton.keys.WalletKey;
import org.tonpayouts.ton.wallet.Subwallets;

/**
 * docker-compose.yml cannot run here (no Docker engine; CI validates its syntax with
 * {@code docker-compose config}), so this test checks what it must contain for a payout to settle
 * with {@code docker compose up}: the services the apps need, started in the right order, their
 * settings known to PayoutsConfig, the demo wallets funded, a valid demo request, Prometheus scraping
 * the apps' metrics ports and Grafana wired to it. (The dashboard's metric names are checked against
 * real scrapes of both apps in {@link UpCommandTest}.)
 */
class ComposeFileTest {
  private static final List<String> APPS = List.of("streams-app", "chain-poller");
  private static Path checkout;
  private static JsonNode services;

  @BeforeAll
  static void read() throws IOException {
    checkout = Home.locate().dir();
    services = yaml(checkout.resolve("docker-compose.yml")).get("services");
  }

  /** Reads YAML with SnakeYAML, which resolves anchors, aliases and {@code <<} merge keys as Compose does. */
  static JsonNode yaml(Path file) throws IOException {
    Object tree = new org.yaml.snakeyaml.Yaml().load(Files.readString(file, StandardCharsets.UTF_8));
    return new ObjectMapper().valueToTree(tree);
  }

  private static JsonNode service(String name) {
    JsonNode s = services.get(name);
    assertThat(s).as("service %s", name).isNotNull();
    return s;
  }

  private static Map<String, String> env(String service) {
    Map<String, String> env = new HashMap<>();
    service(service).path("environment").fields().forEachRemaining(e -> env.put(e.getKey(), e.getValue().asText()));
    return env;
  }

  @Test
  void shouldHaveEveryServiceAPayoutNeedsAndPinEveryImage() {
    assertThat(iterable(services.fieldNames())).contains("kafka", "postgres", "devnet", "topics", "streams-app",
        "chain-poller", "demo-request", "kafka-ui", "prometheus", "grafana");
    services.fields().forEachRemaining(e -> {
      String image = e.getValue().get("image").asText();
      assertThat(image).as("image of %s", e.getKey()).contains(":").doesNotEndWith(":latest").doesNotEndWith(":main");
    });
    assertThat(service("kafka-ui").get("image").asText()).startsWith("kafbat/kafka-ui:v");
    assertThat(env("kafka-ui")).containsEntry("KAFKA_CLUSTERS_0_DEFAULTVALUESERDE", "String");
  }

  @Test
  void shouldConfigureTheAppsWithKnownKeysAndServicesTheyWaitFor() {
    for (String app : List.of("topics", "streams-app", "chain-poller")) {
      Map<String, String> env = env(app);
      for (String name : env.keySet()) {
        if (name.startsWith(PayoutsConfig.ENV_PREFIX)) {
          assertThat(PayoutsConfig.CONFIG.names().stream().map(PayoutsConfig::envName)).as("%s in %s", name, app)
              .contains(name);
        }
      }
      assertThat(env.get("PAYOUTS_KAFKA_BOOTSTRAP_SERVERS")).isEqualTo("kafka:19092");
    }
    assertThat(dependsOn("topics")).containsEntry("kafka", "service_healthy");
    assertThat(service("topics").get("command").toString()).contains("topics");
    assertThat(service("topics").get("restart").asText()).isEqualTo("no");
    for (String app : APPS) {
      Map<String, String> env = env(app);
      assertThat(env.get("PAYOUTS_TON_API_URL")).isEqualTo("http://devnet:8081");
      assertThat(env.get(PayoutsConfig.envName(PayoutsConfig.TON_NETWORK_CONFIG))).as("the network %s checks", app)
          .isEqualTo("devnet");
      assertThat(dependsOn(app)).containsEntry("topics", "service_completed_successfully")
          .containsEntry("devnet", "service_healthy");
      assertThat(service(app).get("healthcheck").get("test").toString())
          .contains("/health/ready").contains(env.get("PAYOUTS_METRICS_PORT"));
      assertThat(service(app).get("volumes").toString()).contains(":/state");
    }
    assertThat(env("streams-app").get("PAYOUTS_POSTGRES_URL")).isEqualTo("jdbc:postgresql://postgres:5432/payouts");
    assertThat(dependsOn("streams-app")).containsEntry("postgres", "service_healthy");
    assertThat(env("streams-app")).containsKey("TON_WALLET_SEED_HEX");
    assertThat(env("chain-poller")).as("chain-poller never signs").doesNotContainKey("TON_WALLET_SEED_HEX");
    assertThat(env("streams-app")).as("the demo's inline key needs the laptop-only switch")
        .containsEntry(PayoutsConfig.envName(PayoutsConfig.WALLET_SECRET_INLINE_ALLOWED_CONFIG), "true");
    assertThat(env("chain-poller")).doesNotContainKey(
        PayoutsConfig.envName(PayoutsConfig.WALLET_SECRET_INLINE_ALLOWED_CONFIG));
    for (String infra : List.of("kafka", "postgres", "devnet")) {
      assertThat(service(infra).get("healthcheck")).as("healthcheck of %s", infra).isNotNull();
    }
  }

  @Test
  void shouldListenWhereThePublishedPortsReachTheAppsAndPublishTheAdminApiOnTheHostsLoopbackOnly() {
    Map<String, String> streamsApp = env("streams-app");
    // inside a container, loopback is unreachable from the published port: the admin API takes every interface
    assertThat(streamsApp).containsEntry(PayoutsConfig.envName(PayoutsConfig.ADMIN_BIND_ADDRESS_CONFIG), "0.0.0.0");
    assertThat(service("streams-app").get("ports").toString())
        .contains("127.0.0.1:" + streamsApp.get("PAYOUTS_ADMIN_PORT") + ":" + streamsApp.get("PAYOUTS_ADMIN_PORT"));
    for (String app : APPS) {
      assertThat(env(app).getOrDefault(PayoutsConfig.envName(PayoutsConfig.METRICS_BIND_ADDRESS_CONFIG),
          new PayoutsConfig(Map.of()).metricsBindAddress())).as("metrics of %s reach Prometheus", app).isEqualTo("0.0.0.0");
    }
  }

  @Test
  void shouldAdvertiseAnInternalAndAHostListenerAndKeepDataInVolumes() {
    Map<String, String> kafka = env("kafka");
    assertThat(kafka.get("KAFKA_ADVERTISED_LISTENERS")).contains("kafka:19092").contains("localhost:9092");
    assertThat(service("kafka").get("ports").toString()).contains("9092:9092");
    assertThat(kafka).containsEntry("KAFKA_AUTO_CREATE_TOPICS_ENABLE", "false");
    assertThat(service("kafka").get("volumes").toString()).contains(":" + kafka.get("KAFKA_LOG_DIRS"));
    assertThat(service("postgres").get("volumes").toString()).contains(":/var/lib/postgresql/data");
  }

  @Test
  void shouldFundTheDemoWalletsOfTheSeedStreamsAppSigns() {
    Matcher seed = Pattern.compile("\\$\\{TON_WALLET_SEED_HEX:-([0-9a-f]{64})}").matcher(
        service("streams-app").get("environment").get("TON_WALLET_SEED_HEX").asText());
    assertThat(seed.matches()).isTrue();
    Subwallets subwallets = new Subwallets(WalletKey.fromSeedHex(seed.group(1)), 0);
    List<String> funded = new ArrayList<>();
    JsonNode command = service("devnet").get("command");
    for (int i = 0; i < command.size(); i++) {
      if (command.get(i).asText().equals("--fund")) {
        funded.add(command.get(i + 1).asText().split("=")[0]);
      }
    }
    assertThat(funded).containsExactly(
        subwallets.address(Subwallets.DEFAULT_SUBWALLET_ID).toFriendly(true, false),
        subwallets.address(Subwallets.DEFAULT_SUBWALLET_ID + 1).toFriendly(true, false),
        subwallets.address(Subwallets.DEFAULT_SUBWALLET_ID + 2).toFriendly(true, false));
  }

  @Test
  void shouldProduceAValidDemoRequestFromAFundedWalletOnceBothAppsAreReady() {
    String script = service("demo-request").get("command").get(0).asText();
    Matcher line = Pattern.compile("echo '([^|']+)\\|([^']+)'").matcher(script);
    assertThat(line.find()).as(script).isTrue();
    ValidationResult result = PayoutRequestValidator.shared().validate(line.group(2).getBytes(StandardCharsets.UTF_8));

    assertThat(result.isValid()).as("%s", result).isTrue();
    Matcher seed = Pattern.compile("\\$\\{TON_WALLET_SEED_HEX:-([0-9a-f]{64})}").matcher(
        service("streams-app").get("environment").get("TON_WALLET_SEED_HEX").asText());
    assertThat(seed.find()).isTrue();
    PayoutsConfig defaults = PayoutsConfig.load(java.util.Optional.empty(), java.util.Map.of());
    DestinationPolicy composeWallets = DestinationPolicy.from(defaults,
        new Subwallets(WalletKey.fromSeedHex(seed.group(1)), 0));
    assertThat(RequestRules.from(defaults, composeWallets).problems(line.group(1), result.request())).isEmpty();
    assertThat(result.request().subwalletId()).isBetween(Subwallets.DEFAULT_SUBWALLET_ID,
        Subwallets.DEFAULT_SUBWALLET_ID + 2);
    assertThat(script).contains("--topic payout.requests").contains("kafka:19092").contains("parse.key=true");
    assertThat(dependsOn("demo-request")).containsEntry("streams-app", "service_healthy")
        .containsEntry("chain-poller", "service_healthy");
  }

  @Test
  void shouldScrapeBothAppsOnTheirMetricsPorts() throws IOException {
    JsonNode prometheus = yaml(checkout.resolve("ops/prometheus/prometheus.yml"));
    Map<String, String> targets = new HashMap<>();
    for (JsonNode job : prometheus.get("scrape_configs")) {
      for (JsonNode config : job.get("static_configs")) {
        for (JsonNode target : config.get("targets")) {
          String[] hostPort = target.asText().split(":");
          targets.put(hostPort[0], hostPort[1]);
        }
      }
    }
    assertThat(targets.keySet()).containsExactlyInAnyOrderElementsOf(APPS);
    for (String app : APPS) {
      assertThat(targets.get(app)).as("scrape port of %s", app).isEqualTo(env(app).get("PAYOUTS_METRICS_PORT"));
    }
    assertThat(service("prometheus").get("volumes").toString()).contains("./ops/prometheus/prometheus.yml:");
  }

  @Test
  void shouldProvisionGrafanaWithThePrometheusDatasourceAndTheDashboard() throws IOException {
    JsonNode datasource = yaml(checkout.resolve("ops/grafana/provisioning/datasources/prometheus.yml")).get("datasources").get(0);
    assertThat(datasource.get("url").asText()).isEqualTo("http://prometheus:9090");
    JsonNode provider = yaml(checkout.resolve("ops/grafana/provisioning/dashboards/payouts.yml"))
        .get("providers").get(0);
    String grafanaVolumes = service("grafana").get("volumes").toString();
    assertThat(grafanaVolumes).contains("./ops/grafana/dashboards:" + provider.at("/options/path").asText())
        .contains("./ops/grafana/provisioning:/etc/grafana/provisioning");
    JsonNode dashboard = new ObjectMapper().readTree(checkout.resolve(DashboardQueries.DASHBOARD).toFile());
    for (JsonNode panel : dashboard.get("panels")) {
      if (!panel.get("type").asText().equals("row")) {
        assertThat(panel.at("/datasource/uid").asText()).as(panel.get("title").asText())
            .isEqualTo(datasource.get("uid").asText());
        assertThat(panel.get("targets")).as(panel.get("title").asText()).isNotEmpty();
      }
    }
    assertThat(DashboardQueries.metricNames(checkout)).contains("payout_transfers_settled_total",
        "ton_api_requests_seconds_count", "ton_tx_seqno_mismatch_total", "jvm_memory_used_bytes",
        "hikaricp_connections_active", "kafka_stream_thread_process_rate");
  }

  @Test
  void shouldReadMetricNamesOutOfPromQl() {
    assertThat(DashboardQueries.metricNames(
        "sum by (method) (rate(ton_api_requests_seconds_sum{outcome!=\"ok\"}[1m])) / sum(rate(x_total[$__range]))"))
        .containsExactly("ton_api_requests_seconds_sum", "x_total");
    assertThat(DashboardQueries.scraped("a_total{b=\"c\"} 1.0\nd 2\n", "a_total")).isTrue();
    assertThat(DashboardQueries.scraped("a_total_x{b=\"c\"} 1.0\n", "a_total")).isFalse();
  }

  private static Map<String, String> dependsOn(String service) {
    Map<String, String> conditions = new HashMap<>();
    service(service).get("depends_on").fields()
        .forEachRemaining(e -> conditions.put(e.getKey(), e.getValue().get("condition").asText()));
    return conditions;
  }

  private static <T> List<T> iterable(Iterator<T> it) {
    List<T> list = new ArrayList<>();
    it.forEachRemaining(list::add);
    return list;
  }

  static Set<String> appNames() {
    return Set.copyOf(APPS);
  }

  static String read(Path file) throws IOException {
    return Files.readString(file, StandardCharsets.UTF_8);
  }
}
