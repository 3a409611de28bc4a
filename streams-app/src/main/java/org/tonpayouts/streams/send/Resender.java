package org.tonpayouts.streams.send;

import java.time.Clock;
import java.time.Duration;
import java.util.Collection;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.tonpayouts.streams.ledger.sql.LedgerRow;
import org.tonpayouts.streams.metrics.PayoutMetrics;
import org.tonpayouts.ton.api.Failures;
import org.tonpayouts.ton.api.MessageRejectedException;
import org.tonpayouts.ton.api.TonApi;

/**
 * Re-sends the same signed message until the chain decides it (DESIGN.md, the safe-retry rule:
 * re-sending the same BOC is always safe, the wallet applies it at most once). An external message
 * can be lost between the API's liteserver and the validators, and a send can fail with a 429,
 * a 5xx or a transport error; waiting for {@code valid_until} to expire and signing anew would
 * cost a minute, re-sending costs one call.
 *
 * <p>A message is re-sent when no verdict came {@link ResendDelay#current() a while} after its send
 * (at least {@code after}, a few blocks; longer while verdicts take longer), then every
 * {@code every}, and sooner ({@code retry}, doubling up to {@code every}) after a failed send,
 * until it is forgotten (the processor saw a verdict) or its {@code valid_until} passed. One
 * scheduler thread; every re-send goes to the {@link SendLog} (the ledger's send count) and is counted.
 *
 * <p>What the delay learns: the time from a message's first send to its verdict, for messages
 * whose verdict belongs to that send. A message re-sent and accepted is left out (Karn's rule: the
 * verdict may be the re-send's, and a lost message's wait includes the delay itself, so learning
 * it would raise the delay by its own value). A message whose re-send the wallet refused is
 * learned when its verdict comes: the first send applied, only its verdict came late, and those
 * late verdicts are exactly what the delay must learn to wait for (leaving them out, it saw only
 * the verdicts that came before it fired, and never rose).
 */
public final class Resender implements AutoCloseable {
  private static final Logger log = LoggerFactory.getLogger(Resender.class);
  private static final Duration FIRST_RETRY = Duration.ofMillis(200);
  /** The longest a message waits for its first re-send, however slow verdicts are. */
  static final Duration MAX_FIRST_RESEND = Duration.ofSeconds(15);

  /** When and how a watched message is re-sent. */
  public record Settings(Duration after, Duration every) {}

  private final TonApi api;
  private final SendLog sendLog;
  private final Clock clock;
  private final Settings settings;
  private final PayoutMetrics metrics;
  private final ScheduledExecutorService scheduler;
  private final ResendDelay delay;
  /** Refused re-sends remembered for their verdict's time; the oldest go first beyond this many. */
  static final int REFUSED_REMEMBERED = 10_000;

  /** Watched messages by hash: the next re-send, and when the message was first handed over. */
  private final Map<String, Watch> watched = new ConcurrentHashMap<>();
  /** Messages whose re-send the wallet refused, by hash: when each was first handed over. */
  private final Map<String, Long> refused = Collections.synchronizedMap(
      new LinkedHashMap<>(16, 0.75f, false) {
        @Override
        protected boolean removeEldestEntry(Map.Entry<String, Long> eldest) {
          return size() > REFUSED_REMEMBERED;
        }
      });

  /**
   * @param sinceNanos when the message was first handed to the API
   * @param resent whether a re-send of it was accepted (its verdict then teaches nothing)
   */
  private record Watch(ScheduledFuture<?> next, long sinceNanos, boolean resent) {}

  public Resender(TonApi api, SendLog sendLog, Clock clock, Settings settings, PayoutMetrics metrics) {
    this.api = api;
    this.sendLog = sendLog;
    this.clock = clock;
    this.settings = settings;
    this.metrics = metrics;
    this.delay = new ResendDelay(settings.after(), MAX_FIRST_RESEND.compareTo(settings.after()) < 0 ? settings.after()
        : MAX_FIRST_RESEND);
    this.scheduler = Executors.newSingleThreadScheduledExecutor(r -> {
      Thread t = new Thread(r, "payout-resender");
      t.setDaemon(true);
      return t;
    });
  }

  /**
   * Watches a message just handed to the API: re-sent when it has no verdict after {@link
   * ResendDelay#current()}, or soon when the send was not acknowledged.
   */
  public void watch(LedgerRow message, boolean acknowledged) {
    schedule(message, acknowledged ? delay.current() : FIRST_RETRY, FIRST_RETRY);
  }

  /** Stops re-sending these messages (their transfer has a verdict); how long the verdict took teaches the delay. */
  public void forget(Collection<String> hashes) {
    long now = System.nanoTime();
    for (String hash : hashes) {
      Watch watch = watched.remove(hash);
      Long since = refused.remove(hash);
      if (watch != null) {
        watch.next().cancel(false);
        if (!watch.resent()) {
          delay.verdictAfter(Duration.ofNanos(now - watch.sinceNanos()));
        }
      } else if (since != null) {
        delay.verdictAfter(Duration.ofNanos(now - since));
      }
    }
  }

  /** How long a message just sent would wait for its first re-send now. */
  public Duration firstResendAfter() {
    return delay.current();
  }

  /** Messages being re-sent. */
  public int watching() {
    return watched.size();
  }

  private void schedule(LedgerRow message, Duration delay, Duration retry) {
    schedule(message, delay, retry, false);
  }

  /** Schedules the message's next re-send; {@code resent}: one was just accepted. */
  private void schedule(LedgerRow message, Duration delay, Duration retry, boolean resent) {
    if (!clock.instant().plus(delay).isBefore(message.validUntil())) {
      watched.remove(message.messageHash());
      return; // past valid_until the wallet refuses it anyway: the poller will prove the expiry
    }
    try {
      ScheduledFuture<?> next = scheduler.schedule(() -> resend(message, retry), delay.toMillis(), TimeUnit.MILLISECONDS);
      watched.compute(message.messageHash(), (hash, watch) -> watch == null ? new Watch(next, System.nanoTime(), resent)
          : new Watch(next, watch.sinceNanos(), resent || watch.resent()));
    } catch (java.util.concurrent.RejectedExecutionException e) {
      watched.remove(message.messageHash()); // closing
    }
  }

  private void resend(LedgerRow message, Duration retry) {
    if (!watched.containsKey(message.messageHash())) {
      return;
    }
    metrics.resent();
    // on our own thread: the answer arrives on a shared thread of the API client, and recording a send is a ledger write
    api.sendBocReturnHash(message.boc()).whenCompleteAsync((answer, error) -> {
      if (!watched.containsKey(message.messageHash())) {
        return;
      }
      if (error == null) {
        log.info("message re-sent subwallet={} request={} transfer={} seqno={} hash={}", message.subwalletId(),
            message.requestId(), message.transferId(), message.seqno(), message.messageHash());
        schedule(message, settings.every(), FIRST_RETRY, true);
        sendLog.sent(message.messageHash());
      } else if (Failures.cause(error) instanceof MessageRejectedException rejected) {
        // The wallet refuses it now (its seqno moved: this message or another of its transfer
        // applied; or valid_until passed): nothing left to re-send, the poller gives the verdict.
        Watch watch = watched.get(message.messageHash());
        if (watch != null && !watch.resent()) {
          refused.put(message.messageHash(), watch.sinceNanos()); // learned when that verdict comes
        }
        watched.remove(message.messageHash()); // after the put: whoever finds the watch gone finds the entry
        log.info("re-send refused, no more re-sends subwallet={} request={} hash={} reason={}", message.subwalletId(),
            message.requestId(), message.messageHash(), rejected.getMessage());
      } else {
        Duration next = retry.multipliedBy(2).compareTo(settings.every()) > 0 ? settings.every() : retry.multipliedBy(2);
        log.warn("re-send not acknowledged, trying again in {} ms subwallet={} request={} hash={} error={}",
            retry.toMillis(), message.subwalletId(), message.requestId(), message.messageHash(), error.toString());
        schedule(message, retry, next);
      }
    }, scheduler);
  }

  @Override
  public void close() {
    scheduler.shutdownNow();
    watched.clear();
    refused.clear();
  }
}
