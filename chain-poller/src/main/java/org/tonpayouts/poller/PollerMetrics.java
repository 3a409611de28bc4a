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

  private final MeterRegistry registry;
  private final Counter walletPolls;
  private final Counter walletPollFailures;

  public PollerMetrics(MeterRegistry registry) {
    this.registry = Objects.requireNonNull(registry, "registry");
    walletPolls = Counter.builder(WALLET_POLLS)
        .description("Wallets polled (one transaction scan each)").register(registry);
    walletPollFailures = Counter.builder(WALLET_POLL_FAILURES)
        .description("Wallet polls that failed or missed the round's deadline (retried next round)").register(registry);
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

  public void walletPolled() {
    walletPolls.increment();
  }

  public void walletPollFailed() {
    walletPollFailures.increment();
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

  public double count(String name) {
    Counter c = registry.find(name).counter();
    return c == null ? 0 : c.count();
  }
}
