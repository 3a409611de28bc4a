package org.tonpayouts.runtime.ops;

import java.net.URI;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Objects;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.tonpayouts.runtime.PayoutsConfig;
import org.tonpayouts.runtime.StartupException;
import org.tonpayouts.ton.address.TonAddress;
import org.tonpayouts.ton.api.AddressInfo;
import org.tonpayouts.ton.api.TonApi;

/**
 * The TON API node's clock against ours. Expiry of a signed message is judged by the node's synced
 * time ({@code sync_utime}) plus {@code transfer.clock.skew.seconds}; if the two clocks are
 * further apart than that margin, the margin no longer covers the difference, so the processes
 * refuse to start (and report not ready) rather than reason about expiry on a wrong clock.
 */
public final class NodeClock {
  /** Any account gives the node's sync time; the zero address is valid on every network. */
  static final TonAddress PROBE = TonAddress.of(TonAddress.BASECHAIN, new byte[32]);

  private final TonApi api;
  private final URI url;
  private final Clock clock;
  private final Duration maxSkew;
  private final Duration timeout;

  /**
   * @param url the API's base URL, named in every message
   * @param maxSkew the largest accepted difference ({@code transfer.clock.skew.seconds})
   * @param timeout how long one read may take, the client's retries included
   */
  public NodeClock(TonApi api, URI url, Clock clock, Duration maxSkew, Duration timeout) {
    this.api = Objects.requireNonNull(api, "api");
    this.url = Objects.requireNonNull(url, "url");
    this.clock = Objects.requireNonNull(clock, "clock");
    this.maxSkew = Objects.requireNonNull(maxSkew, "maxSkew");
    this.timeout = Objects.requireNonNull(timeout, "timeout");
  }

  /** One reading of the node's clock.
   *
   * @throws NodeClockException when the node cannot be reached or reports no time
   */
  public Reading read() {
    AddressInfo info;
    try {
      info = api.getAddressInformation(PROBE).get(timeout.toMillis(), TimeUnit.MILLISECONDS);
    } catch (TimeoutException e) {
      throw new NodeClockException("TON API " + url + " did not answer getAddressInformation within "
          + timeout.toMillis() + " ms", e);
    } catch (ExecutionException e) {
      throw new NodeClockException("cannot reach TON API " + url + ": " + CheckResult.describe(e), e.getCause());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new NodeClockException("interrupted while reading the clock of TON API " + url, e);
    }
    Instant ours = clock.instant();
    if (info.syncUtime() <= 0) {
      throw new NodeClockException("TON API " + url + " reports no sync_utime in getAddressInformation", null);
    }
    return new Reading(url, Instant.ofEpochSecond(info.syncUtime()), ours, maxSkew);
  }

  /**
   * The start-up check: returns the reading when the node answers and its clock is within the skew.
   *
   * @throws NodeClockException naming the URL and the cause otherwise
   */
  public Reading verify() {
    Reading reading = readPatiently();
    if (!reading.withinLimit()) {
      throw new NodeClockException(reading.describe() + ": more than " + PayoutsConfig.TRANSFER_CLOCK_SKEW_SECONDS_CONFIG
          + "=" + maxSkew.toSeconds() + ". Expiry is judged by the node's time plus that margin; fix this host's clock"
          + " (NTP), use a node that is in sync, or raise the margin.", null);
    }
    return reading;
  }

  /** {@link #read()}, asked again while the node answers "not now" ({@link StartupPatience}). */
  private Reading readPatiently() {
    return StartupPatience.read(this::read, "clock", url);
  }

  /**
   * The readiness check: up when the node answers and its clock is within the skew. It shows the
   * clocks and the kind of failure; the API's URL and the failure's message go to the log only.
   */
  public HealthCheck check() {
    return () -> {
      try {
        Reading reading = read();
        return reading.withinLimit() ? CheckResult.up(reading.describeClocks())
            : CheckResult.down(reading.describeClocks() + ": beyond " + PayoutsConfig.TRANSFER_CLOCK_SKEW_SECONDS_CONFIG
                + "=" + maxSkew.toSeconds(), reading.describe());
      } catch (NodeClockException e) {
        return CheckResult.down(e.getCause() == null ? "no sync_utime in the answer" : CheckResult.kind(e.getCause()),
            e.getMessage());
      }
    };
  }

  /**
   * One comparison of the node's synced time with ours.
   *
   * @param nodeTime the node's {@code sync_utime}
   * @param ourTime our clock when the answer arrived
   */
  public record Reading(URI url, Instant nodeTime, Instant ourTime, Duration maxSkew) {
    /** How far apart the clocks are, whichever is ahead. */
    public Duration skew() {
      return Duration.between(nodeTime, ourTime).abs();
    }

    public boolean withinLimit() {
      return skew().compareTo(maxSkew) <= 0;
    }

    public String describe() {
      return "TON API " + url + " " + describeClocks();
    }

    /** The two clocks and their distance, without the URL (what readiness shows). */
    public String describeClocks() {
      return "node time " + nodeTime + " (sync_utime), ours " + ourTime.truncatedTo(
          java.time.temporal.ChronoUnit.MILLIS) + ", " + skew().toMillis() / 1000.0 + " s apart";
    }
  }

  /** The node could not be read, or its clock is too far from ours; the message names the URL and the cause. */
  public static final class NodeClockException extends StartupException {
    public NodeClockException(String message, Throwable cause) {
      super(message, cause);
    }
  }
}
