package org.tonpayouts.runtime.ops;

import io.micrometer.core.instrument.MeterRegistry;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import org.tonpayouts.runtime.PayoutsConfig;
import org.tonpayouts.ton.api.ProviderPool;
import org.tonpayouts.ton.api.TonApiClient;
import org.tonpayouts.ton.api.TonApiConfig;

/** The TON API both apps use, built from the configuration: a {@link ProviderPool} of one or more providers. */
public final class TonApiPools {
  private TonApiPools() {
  }

  /**
   * One client per provider of {@link PayoutsConfig#tonApiProviders()}, in a pool. With several
   * providers each client makes one attempt per call: the pool's walk to the next provider replaces
   * the client's own retries, so a failing provider costs one attempt, not three with back-off,
   * before another is asked. A lone provider keeps its client's retries, exactly as with
   * {@code ton.api.url} before pools existed.
   */
  public static ProviderPool open(List<PayoutsConfig.TonApiProvider> providers, ProviderPool.Settings settings,
      MeterRegistry registry, Clock clock) {
    List<ProviderPool.Provider> members = new ArrayList<>();
    for (PayoutsConfig.TonApiProvider p : providers) {
      TonApiConfig api = providers.size() == 1 ? p.api() : p.api().withMaxReadAttempts(1);
      members.add(new ProviderPool.Provider(p.name(), api.baseUrl(), new TonApiClient(api, registry, p.name())));
    }
    return new ProviderPool(members, settings, registry, clock);
  }

  /** {@link #open(List, ProviderPool.Settings, MeterRegistry, Clock)} with the configuration's providers and settings. */
  public static ProviderPool open(PayoutsConfig config, MeterRegistry registry, Clock clock) {
    return open(config.tonApiProviders(), config.providerPoolSettings(), registry, clock);
  }
}
