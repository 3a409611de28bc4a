package org.tonpayouts.runtime.ops;

import java.net.URI;
import java.time.Duration;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.tonpayouts.runtime.StartupException;
import org.tonpayouts.ton.api.TonApiException;

/**
 * How the start-up checks read what the process depends on when the answer may be "not now". The
 * TON API node ({@link NodeClock}, {@link NodeNetwork}): a node that answers 429 or 5xx is asked
 * again for up to {@link #STARTUP_PATIENCE}, since instances starting together share one API key
 * and a rate limit at start is no reason to exit; a node that does not answer at all fails at once
 * (most often a wrong URL). The ledger ({@link #retry}): a database that refuses or does not answer
 * connections is tried again for a while, since an instance restarted during a failover or a
 * restart of PostgreSQL would otherwise exit and wait out its supervisor's growing back-off.
 */
public final class StartupPatience {
  private static final Logger log = LoggerFactory.getLogger(StartupPatience.class);
  static final Duration STARTUP_PATIENCE = Duration.ofSeconds(30);
  private static final Duration FIRST_WAIT = Duration.ofSeconds(1);
  private static final Duration LONGEST_WAIT = Duration.ofSeconds(5);

  private StartupPatience() {}

  /**
   * {@code read}, asked again while it fails with a {@link StartupException} caused by a transient
   * answer of the node (HTTP 429 or 5xx), waiting 1 s, then twice as long each time up to 5 s.
   *
   * @param what what is read, for the log line (e.g. {@code clock})
   * @param url the API's base URL, for the log line
   * @throws StartupException the last failure, once it is not "not now" or the patience is spent
   */
  static <T> T read(Supplier<T> read, String what, URI url) {
    return retry(read, e -> e instanceof StartupException && e.getCause() instanceof TonApiException t
        && t.isTransient() && t.httpStatus() > 0, STARTUP_PATIENCE, "ton api node " + what, url.toString());
  }

  /**
   * {@code attempt}, made again while it fails with an exception {@code notNow} accepts, waiting 1 s,
   * then twice as long each time up to 5 s, for up to {@code patience}.
   *
   * @param what what is read, for the log line (e.g. {@code ledger database})
   * @param where where it is read from, for the log line (a URL; never one holding a secret)
   * @throws RuntimeException the last failure, once {@code notNow} refuses it or the patience is spent
   */
  public static <T> T retry(Supplier<T> attempt, java.util.function.Predicate<RuntimeException> notNow,
      Duration patience, String what, String where) {
    long deadline = System.nanoTime() + patience.toNanos();
    Duration wait = FIRST_WAIT;
    while (true) {
      try {
        return attempt.get();
      } catch (RuntimeException e) {
        if (!notNow.test(e) || System.nanoTime() + wait.toNanos() - deadline > 0) {
          throw e;
        }
        log.warn("{} not read yet, asking again in {} ms at={} reason=\"{}\"", what, wait.toMillis(), where,
            e.getMessage());
        try {
          Thread.sleep(wait.toMillis());
        } catch (InterruptedException interrupted) {
          Thread.currentThread().interrupt();
          throw e;
        }
        wait = wait.multipliedBy(2).compareTo(LONGEST_WAIT) > 0 ? LONGEST_WAIT : wait.multipliedBy(2);
      }
    }
  }
}
