package org.tonpayouts.streams;

import java.nio.file.Path;
import java.time.Clock;
import java.util.Optional;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import org.apache.kafka.streams.KafkaStreams;
import com.zaxxer.hikari.HikariDataSource;
import org.tonpayouts.runtime.PayoutsConfig;
import org.tonpayouts.streams.ledger.Ledger;
import org.tonpayouts.streams.metrics.PayoutMetrics;
import org.tonpayouts.ton.api.TonApiClient;
import org.tonpayouts.ton.keys.WalletKey;
import org.tonpayouts.ton.keys.WalletSecrets;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** Entry point of the streams-app process. */
@Command(name = "streams-app", mixinStandardHelpOptions = true,
    description = "Issues TON payouts: one transaction at a time per WalletV4R2 subwallet.")
public final class StreamsAppMain implements Callable<Integer> {
  @Option(names = "--config", description = "Properties file; PAYOUTS_* environment variables override it.")
  private Path configFile;

  public static void main(String[] args) {
    System.exit(new CommandLine(new StreamsAppMain()).execute(args));
  }

  @Override
  public Integer call() throws Exception {
    PayoutsConfig config = PayoutsConfig.load(Optional.ofNullable(configFile), System.getenv());
    WalletKey key = config.walletSecretFile().map(WalletSecrets::fromFile)
        .orElseGet(() -> WalletSecrets.fromEnvironment(System.getenv()));
    CountDownLatch stopped = new CountDownLatch(1);
    try (HikariDataSource dataSource = Ledger.pooledDataSource(config.postgresUrl(), config.postgresUser(),
            config.postgresPassword(), 4);
        TonApiClient api = new TonApiClient(config.tonApi());
        StreamsApp app = new StreamsApp(config, key, api, dataSource, Clock.systemUTC(),
            new PayoutMetrics(new io.micrometer.core.instrument.simple.SimpleMeterRegistry()))) {
      Runtime.getRuntime().addShutdownHook(new Thread(() -> {
        app.close();
        stopped.countDown();
      }, "streams-app-shutdown"));
      // A stream thread that failed on something not transient stops the instance (ERROR): exit 1
      // so the supervisor sees it, instead of idling as a healthy-looking process.
      app.streams().setStateListener((now, before) -> {
        if (now == KafkaStreams.State.ERROR || now == KafkaStreams.State.NOT_RUNNING) {
          stopped.countDown();
        }
      });
      app.start();
      stopped.await();
      return app.streams().state() == KafkaStreams.State.ERROR ? 1 : 0;
    }
  }
}
