package org.tonpayouts.poller;

import static org.assertj.core.api.Assertions.assertThat;
import static org.tonpayouts.poller.Wallets.BOB;
import static org.tonpayouts.poller.Wallets.TON;
import static org.tonpayouts.poller.Wallets.send;
import static org.tonpayouts.poller.Wallets.submission;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.kafka.streams.processor.api.MockProcessorContext;
import org.apache.kafka.streams.processor.api.Record;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.tonpayouts.devnet.Devnet;
import org.tonpayouts.devnet.ManualClock;
import org.tonpayouts.schemas.Confirmation;
import org.tonpayouts.schemas.ConfirmationStatus;
import org.tonpayouts.schemas.Submission;
import org.tonpayouts.schemas.Topics;
import org.tonpayouts.ton.api.TonApiClient;
import org.tonpayouts.ton.api.TonApiConfig;
import org.tonpayouts.ton.wallet.SignedTransfer;

/**
 * Kafka Streams revives a task after a dirty close by closing and initialising the same processor
 * instance again on its restored stores. The watch list then starts as a fresh one: it polls at
 * once instead of waiting for a round the old incarnation left in flight, and that round's late
 * results are not applied (the new incarnation publishes the verdict itself, once).
 */
class WatchListReviveTest {
  private static final Instant START = Instant.parse("2026-05-01T12:00:00Z");
  private static final Duration INTERVAL = Duration.ofMillis(100);
  private static final PollerSettings SETTINGS = new PollerSettings(INTERVAL, Duration.ofSeconds(10),
      Duration.ofSeconds(30), 1_000, Duration.ofMinutes(10), PollerSettings.DEFAULT_PAGE_SIZE,
      PollerSettings.DEFAULT_MAX_PAGES, Duration.ofSeconds(30), Duration.ZERO,
      Duration.ofSeconds(2));

  private final ManualClock clock = ManualClock.fixedAt(START);
  private final Wallets wallets = new Wallets();
  private Devnet devnet;
  private TonApiClient api;

  /** Counts rounds started and the steps their calls queued for the stream thread. */
  private static final class Rounds implements WatchListProcessor.RoundListener {
    final AtomicInteger started = new AtomicInteger();
    final AtomicInteger steps = new AtomicInteger();
    final Semaphore queued = new Semaphore(0);

    @Override
    public void roundStarted() {
      started.incrementAndGet();
    }

    @Override
    public void stepQueued() {
      steps.incrementAndGet();
      queued.release();
    }
  }

  @BeforeEach
  void setUp() {
    devnet = Devnet.builder().blockInterval(Duration.ZERO).clock(clock).start();
    api = new TonApiClient(TonApiConfig.of(devnet.baseUrl()).withRequestsPerSecond(10_000));
  }

  @AfterEach
  void tearDown() {
    api.close();
    devnet.close();
  }

  @Test
  void shouldPollAtOnceAfterARevivalAndIgnoreTheOldIncarnationsRound() throws Exception {
    long sub = 1201;
    devnet.fund(wallets.address(sub), 5 * TON);
    SignedTransfer t = wallets.sign(sub, 0, clock.instant().plusSeconds(60), BOB, TON);
    send(api, t);
    devnet.produceBlock();
    Rounds rounds = new Rounds();
    PollerMetrics metrics = PollerMetrics.inMemory();
    WatchListProcessor processor = new WatchListProcessor(api,
        new BlockFeed(api, new MasterchainWatch(api, INTERVAL, metrics), clock, SETTINGS, metrics), clock, SETTINGS,
        metrics, org.tonpayouts.runtime.wakeup.StreamThreads.none(), rounds);
    MockProcessorContext<String, Confirmation> context = new MockProcessorContext<>();
    context.setCurrentSystemTimeMs(START.toEpochMilli());
    WatchListStores.openOn(context.getStateStoreContext());

    processor.init(context);
    Submission s = submission(t, "req-revive", clock.instant());
    processor.process(new Record<>(Topics.walletKey(sub), s, context.currentSystemTimeMs()));
    devnet.faults().latency(Duration.ofSeconds(3)); // the old incarnation's round hangs on the API
    tick(context);
    assertThat(rounds.started).hasValue(1);

    processor.close();
    processor.init(context);
    devnet.faults().clear();
    tick(context);

    assertThat(rounds.started).as("a new round at once, not after the old one's calls").hasValue(2);
    List<Confirmation> verdicts = List.of();
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
    while (verdicts.isEmpty() && System.nanoTime() < deadline) {
      rounds.queued.tryAcquire(100, TimeUnit.MILLISECONDS);
      tick(context);
      verdicts = confirmations(context);
    }
    assertThat(verdicts).singleElement().satisfies(c -> {
      assertThat(c.status()).isEqualTo(ConfirmationStatus.CONFIRMED);
      assertThat(c.requestId()).isEqualTo("req-revive");
    });
    // the old round's one call comes back late (a step of its own, besides the new round's two): it goes nowhere
    deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
    while (rounds.steps.get() < 3 && System.nanoTime() < deadline) {
      rounds.queued.tryAcquire(100, TimeUnit.MILLISECONDS);
    }
    assertThat(rounds.steps).as("the old round's answer came back").hasValue(3);
    tick(context);
    assertThat(confirmations(context)).hasSize(1);
    assertThat(rounds.started).hasValue(2);
  }

  /** Every punctuation the processor scheduled (in this incarnation) runs once. */
  private static void tick(MockProcessorContext<String, Confirmation> context) {
    context.setCurrentSystemTimeMs(context.currentSystemTimeMs() + INTERVAL.toMillis());
    context.scheduledPunctuators().forEach(p -> {
      if (!p.cancelled()) {
        p.getPunctuator().punctuate(context.currentSystemTimeMs());
      }
    });
  }

  private static List<Confirmation> confirmations(MockProcessorContext<String, Confirmation> context) {
    return context.forwarded().stream().map(f -> (Confirmation) f.record().value()).toList();
  }
}
