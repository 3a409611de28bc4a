package org.tonpayouts.runtime.ops;

import java.net.URI;
import java.time.Duration;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.tonpayouts.runtime.StartupException;
import org.tonpayouts.ton.api.TonApiException;

/**
 * How the start-up checks of the TON API node ({@link NodeClock}, {@link NodeNetwork}) read it: a
 * node that answers "not now" (429, 5xx) is asked again for up to {@link #STARTUP_PATIENCE}, since
 * instances starting together share one API key and a rate limit at start is no reason to exit. A
 * node that does not answer at all fails at once: that is most often a wrong URL.
 */
final class StartupPatience {
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
    long deadline = System.nanoTime() + STARTUP_PATIENCE.toNanos();
    Duration wait = FIRST_WAIT;
    while (true) {
      try {
        return read.get();
      } catch (StartupException e) {
        boolean notNow = e.getCause() instanceof TonApiException t && t.isTransient() && t.httpStatus() > 0;
        if (!notNow || System.nanoTime() + wait.toNanos() - deadline > 0) {
          throw e;
        }
        log.warn("ton api node {} not read yet, asking again in {} ms url={} reason=\"{}\"", what, wait.toMillis(),
            url, e.getMessage());
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
