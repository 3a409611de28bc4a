package org.tonpayouts.poller;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.util.Objects;
import org.tonpayouts.schemas.ConfirmationStatus;

/**
 * Every metric of the chain poller, declared once: API calls by method (the "API calls per settled
 * transfer" numerator), verdicts by status, and how rounds went.
 */
public final class PollerMetrics {
  public static final String API_CALLS = "poller.api.calls";
  public static final String VERDICTS = "poller.verdicts";
  public static final String ROUNDS = "poller.rounds";
  public static final String WALLET_POLLS = "poller.wallet.polls";
  public static final String WALLET_POLL_FAILURES = "poller.wallet.poll_failures";
  public static final String FEED_STAND_DOWNS = "poller.feed.stand_downs";

  private final MeterRegistry registry;
  private final Counter walletPollFailures;
  private final Counter feedStandDowns;

  public PollerMetrics(MeterRegistry registry) {
    this.registry = Objects.requireNonNull(registry, "registry");
    // both series exist from the start, so dashboards and alerts see a zero rather than nothing
    walletObserved("feed", 0);
    walletObserved("scan", 0);
    walletPollFailures = Counter.builder(WALLET_POLL_FAILURES)
        .description("Wallet polls that failed or missed the round's deadline (retried next round)").register(registry);
    feedStandDowns = Counter.builder(FEED_STAND_DOWNS)
        .description("Times the block feed stood down because the TON API does not serve a method it needs")
        .register(registry);
  }

  /** Metrics kept in memory only (tests, tools). */
  public static PollerMetrics inMemory() {
    return new PollerMetrics(new SimpleMeterRegistry());
  }

  public MeterRegistry registry() {
    return registry;
  }

  /** One TON HTTP API call issued by the poller (retries inside the client not counted). */
  public void apiCall(String method) {
    Counter.builder(API_CALLS).description("TON API calls issued by the poller").tag("method", method)
        .register(registry).increment();
  }

  public void verdict(ConfirmationStatus status) {
    Counter.builder(VERDICTS).description("Confirmations published").tag("status", status.name())
        .register(registry).increment();
  }

  /** A round ended: {@code polled} when wallets were polled, {@code idle} when no new block was seen. */
  public void round(String outcome) {
    Counter.builder(ROUNDS).description("Poll rounds").tag("outcome", outcome).register(registry).increment();
  }

  /** A wallet looked at in a round, its transactions taken from the block feed ({@code feed}) or its own scan ({@code scan}). */
  public void walletObserved(String via) {
    walletObserved(via, 1);
  }

  private void walletObserved(String via, double amount) {
    Counter.builder(WALLET_POLLS).description("Wallets looked at in a round, by where their transactions came from")
        .tag("via", via).register(registry).increment(amount);
  }

  public void walletPollFailed() {
    walletPollFailures.increment();
  }

  public void feedStoodDown() {
    feedStandDowns.increment();
  }

  /** API calls of {@code method} so far. */
  public double apiCalls(String method) {
    Counter c = registry.find(API_CALLS).tag("method", method).counter();
    return c == null ? 0 : c.count();
  }

  /** Verdicts of {@code status} so far. */
  public double verdicts(ConfirmationStatus status) {
    Counter c = registry.find(VERDICTS).tag("status", status.name()).counter();
    return c == null ? 0 : c.count();
  }

  /** The count of {@code name} so far, summed over its tags. */
  public double count(String name) {
    return registry.find(name).counters().stream().mapToDouble(Counter::count).sum();
  }

  /** Wallets looked at so far with their transactions from {@code via} ({@code feed} or {@code scan}). */
  public double walletsObserved(String via) {
    Counter c = registry.find(WALLET_POLLS).tag("via", via).counter();
    return c == null ? 0 : c.count();
  }
}
