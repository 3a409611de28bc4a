package org.tonpayouts.runtime.topics;

import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.Callable;
import org.tonpayouts.runtime.KafkaClientSettings;
import org.tonpayouts.runtime.PayoutsConfig;
import org.tonpayouts.schemas.Topic;
import org.tonpayouts.schemas.Topics;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code topics}: creates or checks every payout topic on the Kafka of the configuration (file and
 * {@code PAYOUTS_*} environment, like the apps) and prints one line per topic. Idempotent. Exit
 * code 0 when every topic is as configured, 1 on a conflict it will not fix by itself.
 * A subcommand of the launcher ({@code ./payouts topics}) and of {@code streams-app.jar}.
 */
@Command(name = "topics", mixinStandardHelpOptions = true,
    description = {"Creates the payout topics that are missing (partitions, replication, cleanup.policy and"
        + " retention.ms from the configuration), updates cleanup.policy and retention.ms of existing ones, and"
        + " reports partition or replication differences without changing them. Safe to run again.",
        "Exit code 0: every topic as configured; 1: a conflict to resolve by hand."})
public final class TopicsCommand implements Callable<Integer> {
  @Spec
  CommandSpec spec;

  @Option(names = "--config", paramLabel = "<file>",
      description = "Properties file (PayoutsConfig keys); PAYOUTS_* environment variables override it.")
  Path configFile;

  @Option(names = "--bootstrap-servers", paramLabel = "<host:port>",
      description = "Overrides kafka.bootstrap.servers.")
  String bootstrapServers;

  @Option(names = "--partitions", paramLabel = "<n>", description = "Overrides topics.partitions.")
  Integer partitions;

  @Override
  public Integer call() throws Exception {
    PayoutsConfig config = PayoutsConfig.load(Optional.ofNullable(configFile), System.getenv());
    String servers = bootstrapServers != null ? bootstrapServers : config.bootstrapServers();
    TopicSettings settings = TopicSettings.from(config);
    if (partitions != null) {
      settings = new TopicSettings(partitions, settings.replicationFactor(), settings.retentionMs());
    }
    return run(servers, config.kafkaClients(), settings, spec.commandLine().getOut());
  }

  /**
   * Provisions every topic of {@link Topics#ALL} and prints the outcomes; 0 when there is no conflict.
   *
   * @param kafka the deployment's TLS, SASL and config-provider settings (the operator's credentials)
   */
  public static int run(String bootstrapServers, KafkaClientSettings kafka, TopicSettings settings, PrintWriter out)
      throws Exception {
    List<String> names = Topics.ALL.stream().map(Topic::name).toList();
    List<String> together = Topics.CO_PARTITIONED.stream().map(Topic::name).toList();
    try (AdminClients.Session session = AdminClients.open(bootstrapServers, kafka, "payouts-topics")) {
      List<TopicOutcome> outcomes = new TopicProvisioner(session.admin(), bootstrapServers, AdminClients.TIMEOUT)
          .provision(names, together, settings);
      out.println("Kafka " + bootstrapServers + ":");
      outcomes.forEach(o -> out.println("  " + o.line()));
      long created = outcomes.stream().filter(o -> o instanceof TopicOutcome.Created).count();
      long updated = outcomes.stream().filter(o -> o instanceof TopicOutcome.Updated).count();
      long conflicts = outcomes.stream().filter(TopicOutcome::isProblem).count();
      out.println(created + " created, " + updated + " updated, " + conflicts + " conflicts");
      out.flush();
      return conflicts == 0 ? 0 : 1;
    }
  }
}
