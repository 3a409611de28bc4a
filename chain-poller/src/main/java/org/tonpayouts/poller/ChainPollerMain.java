package org.tonpayouts.poller;

import java.nio.file.Path;
import java.time.Clock;
import java.util.List;
import java.util.Optional;
import java.util.Properties;
import java.util.concurrent.Callable;
import org.apache.kafka.common.config.ConfigException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.tonpayouts.runtime.PayoutsConfig;
import org.tonpayouts.runtime.StartupException;
import org.tonpayouts.runtime.ops.PayoutProcess;
import org.tonpayouts.runtime.ops.TonApiPools;
import org.tonpayouts.runtime.ops.ProcessMetrics;
import org.tonpayouts.ton.api.CommonPool;
import org.tonpayouts.ton.api.ProviderPool;
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
 * {@code PAYOUTS_KAFKA_BOOTSTRAP_SERVERS}), which overrides the file. It refuses to start (exit 2,
 * one line saying why) when a setting or a secret file is wrong, the TON API node serves another network than
 * {@code ton.network} or its clock is off, or a topic is missing, serves metrics
 * and health on {@code metrics.port}, and runs until SIGTERM/SIGINT (clean close) or until Kafka
 * Streams stops on a non-transient error (exit 1).
 */
@Command(name = "chain-poller", mixinStandardHelpOptions = true,
    description = "Watches submitted TON messages on chain and publishes payout.confirmations.")
public final class ChainPollerMain implements Callable<Integer> {
  static {
    CommonPool.ensureShared(); // before anything uses ForkJoinPool: see CommonPool
  }

  private static final Logger log = LoggerFactory.getLogger(ChainPollerMain.class);
  static final String PROCESS = "chain-poller";

  @Option(names = "--config", paramLabel = "<file>", description = "Properties file (PayoutsConfig keys).")
  Path config;

  public static void main(String[] args) {
    System.exit(new CommandLine(new ChainPollerMain()).execute(args));
  }

  @Override
  public Integer call() throws InterruptedException {
    PayoutsConfig cfg;
    List<PayoutsConfig.TonApiProvider> providers;
    try {
      // the secrets are read now, so a loose secret file stops the start with one line
      cfg = PayoutsConfig.load(Optional.ofNullable(config), System.getenv());
      providers = cfg.tonApiProviders();
    } catch (ConfigException e) {
      return PayoutProcess.refuse(PROCESS, new StartupException(e.getMessage(), e));
    }
    log.info("chain-poller starting api={} bootstrap={} applicationId={} interval={} clockSkew={}",
        providers, cfg.bootstrapServers(), cfg.getString(PayoutsConfig.POLLER_APPLICATION_ID_CONFIG),
        cfg.pollerInterval(), cfg.clockSkewMargin());
    Clock clock = Clock.systemUTC();
    try (ProcessMetrics metrics = new ProcessMetrics(PROCESS);
        ProviderPool api = TonApiPools.open(providers, cfg.providerPoolSettings(), metrics.registry(), clock)) {
      PayoutProcess process = new PayoutProcess(PROCESS, cfg, Optional.ofNullable(config), metrics, clock);
      try {
        process.verifyNetwork(api);
        process.verifyNodeClock(api);
        ChainPoller poller = new ChainPoller(cfg, api, clock, new PollerMetrics(metrics.registry()), new Properties());
        try {
          process.verifyTopics(poller.topology());
          return process.runUntilStopped(poller.streams(), poller::start, poller::close);
        } finally {
          poller.close();
        }
      } catch (StartupException e) {
        return PayoutProcess.refuse(PROCESS, e);
      }
    }
  }
}
