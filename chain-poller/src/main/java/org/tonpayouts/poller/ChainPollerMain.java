package org.tonpayouts.poller;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.nio.file.Path;
import java.time.Clock;
import java.util.Optional;
import java.util.Properties;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import org.apache.kafka.streams.KafkaStreams;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.tonpayouts.runtime.PayoutsConfig;
import org.tonpayouts.ton.api.TonApiClient;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * Entry point of the chain-poller process: watches submitted messages on chain and publishes
 * confirmations. Never signs anything and holds no wallet secret.
 *
 * <pre>
 * java -jar chain-poller/target/chain-poller.jar --config poller.properties
 * </pre>
 *
 * Every key of {@link PayoutsConfig} can also come from the environment ({@code PAYOUTS_*}, e.g.
 * {@code PAYOUTS_KAFKA_BOOTSTRAP_SERVERS}), which overrides the file. The process runs until
 * SIGTERM/SIGINT (clean close) or until Kafka Streams stops on a non-transient error (exit 1).
 */
@Command(name = "chain-poller", mixinStandardHelpOptions = true,
    description = "Watches submitted TON messages on chain and publishes payout.confirmations.")
public final class ChainPollerMain implements Callable<Integer> {
  private static final Logger log = LoggerFactory.getLogger(ChainPollerMain.class);

  @Option(names = "--config", paramLabel = "<file>", description = "Properties file (PayoutsConfig keys).")
  Path config;

  public static void main(String[] args) {
    System.exit(new CommandLine(new ChainPollerMain()).execute(args));
  }

  @Override
  public Integer call() throws InterruptedException {
    PayoutsConfig cfg = PayoutsConfig.load(Optional.ofNullable(config), System.getenv());
    log.info("chain-poller starting api={} bootstrap={} applicationId={} interval={} clockSkew={}",
        cfg.tonApi(), cfg.bootstrapServers(), cfg.getString(PayoutsConfig.POLLER_APPLICATION_ID_CONFIG),
        cfg.pollerInterval(), cfg.clockSkewMargin());
    CountDownLatch stopped = new CountDownLatch(1);
    try (TonApiClient api = new TonApiClient(cfg.tonApi())) {
      ChainPoller poller = new ChainPoller(cfg, api, Clock.systemUTC(), new PollerMetrics(new SimpleMeterRegistry()),
          new Properties());
      poller.streams().setStateListener((now, before) -> {
        log.info("state change from={} to={}", before, now);
        if (now == KafkaStreams.State.NOT_RUNNING || now == KafkaStreams.State.ERROR) {
          stopped.countDown();
        }
      });
      Thread hook = new Thread(() -> {
        log.info("shutdown requested: closing chain-poller");
        poller.close();
        stopped.countDown();
      }, "chain-poller-shutdown");
      Runtime.getRuntime().addShutdownHook(hook);
      poller.start();
      stopped.await();
      KafkaStreams.State state = poller.streams().state();
      poller.close();
      return state == KafkaStreams.State.ERROR ? 1 : 0;
    }
  }
}
