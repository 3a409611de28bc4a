package org.tonpayouts.devnet;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.concurrent.CompletionException;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.tonpayouts.ton.api.MasterchainInfo;
import org.tonpayouts.ton.api.RefusedAnswerException;
import org.tonpayouts.ton.api.TonApiClient;
import org.tonpayouts.ton.api.TonApiConfig;
import org.tonpayouts.ton.api.TonApiException;
import org.tonpayouts.ton.api.TransportException;

/**
 * The TON API client against a node gone bad ({@link HostileProxy} in front of devnet): an endless
 * body, a huge Content-Length, endless nesting, a slow drip and an HTML page each fail their call
 * alone, quickly, with a clear typed error and without reading the whole answer; the next call, the
 * node behaving again, succeeds on the same client.
 */
class HostileAnswersTest {
  private static final long CAP = 1024 * 1024;
  private static final Duration CALL_TIMEOUT = Duration.ofSeconds(2);
  /** Well past a refusal's cost (milliseconds), well below what reading 256 MiB or dripping for a minute takes. */
  private static final Duration QUICK = Duration.ofSeconds(5);

  private Devnet devnet;
  private HostileProxy node;
  private TonApiClient client;

  @BeforeEach
  void start() {
    devnet = Devnet.builder().blockInterval(Duration.ofMillis(100)).start();
    node = HostileProxy.start(devnet.baseUrl());
    client = new TonApiClient(TonApiConfig.of(node.baseUrl()).withRequestsPerSecond(1_000).withCallTimeout(CALL_TIMEOUT)
        .withMaxReadAttempts(1).withMaxResponseBytes(CAP));
  }

  @AfterEach
  void stop() {
    client.close();
    node.close();
    devnet.close();
  }

  @Test
  void shouldStopReadingAnEndlessBodyAtTheCap() {
    node.spoilNext(1, HostileProxy.Answer.ENDLESS_BODY);

    RefusedAnswerException e = refused();

    assertThat(e).hasMessage("getMasterchainInfo: HTTP 200: the answer is larger than the limit of 1048576 bytes;"
        + " stopped reading it");
    assertThat(e.isTransient()).isTrue();
    assertThat(e.maybeDelivered()).as("a read").isFalse();
    assertThat(node.hostileBytesWritten()).as("what got onto the wire before the client hung up (socket buffers)")
        .isLessThan(64L * 1024 * 1024);
    assertBehavesAgain();
  }

  @Test
  void shouldRefuseAHugeContentLengthWithoutReadingTheBody() {
    node.spoilNext(1, HostileProxy.Answer.HUGE_CONTENT_LENGTH);

    assertThat(refused()).hasMessage("getMasterchainInfo: HTTP 200: the answer's Content-Length 1073741824 is larger"
        + " than the limit of 1048576 bytes");
    assertBehavesAgain();
  }

  @Test
  void shouldRefuseEndlessNestingByJacksonsReadConstraints() {
    node.spoilNext(1, HostileProxy.Answer.ENDLESS_NESTING);

    assertThat(refused()).hasMessageStartingWith("getMasterchainInfo: HTTP 200: the answer breaks the client's JSON"
        + " limits: Document nesting depth (65) exceeds the maximum allowed (64");
    assertBehavesAgain();
  }

  @Test
  void shouldBoundASlowDripByTheCallTimeoutBodyIncluded() {
    node.spoilNext(1, HostileProxy.Answer.SLOW_DRIP);
    long started = System.nanoTime();

    Throwable e = failure(client.getMasterchainInfo().handle((r, error) -> error).join());

    Duration took = Duration.ofNanos(System.nanoTime() - started);
    assertThat(e).isInstanceOf(TransportException.class).hasMessageStartingWith("getMasterchainInfo: timed out after PT2S");
    assertThat(((TransportException) e).isTimeout()).isTrue();
    assertThat(took).as("headers came at once; the body never ends").isBetween(CALL_TIMEOUT, CALL_TIMEOUT.plus(QUICK));
    assertBehavesAgain();
  }

  @Test
  void shouldRefuseAnHtmlPageUnread() {
    node.spoilNext(1, HostileProxy.Answer.HTML_PAGE);

    assertThat(refused()).hasMessage("getMasterchainInfo: HTTP 200: the answer is 'text/html; charset=utf-8', not JSON:"
        + " not a TON API (a captive portal or a proxy's page?)");
    assertBehavesAgain();
  }

  @Test
  void shouldRetryAReadPastHostileAnswersAndCallASendsFailureMaybeDelivered() {
    TonApiClient retrying = new TonApiClient(client.config().withMaxReadAttempts(4).withRetryBackoff(Duration.ofMillis(10)));
    try (retrying) {
      node.spoilNext(3, HostileProxy.Answer.HTML_PAGE, HostileProxy.Answer.ENDLESS_NESTING,
          HostileProxy.Answer.HUGE_CONTENT_LENGTH);

      MasterchainInfo info = retrying.getMasterchainInfo().orTimeout(QUICK.toSeconds(), TimeUnit.SECONDS).join();

      assertThat(info.seqno()).isNotNegative();
      assertThat(node.hostileAnswers()).isEqualTo(3);

      node.spoilNext(1, HostileProxy.Answer.ENDLESS_BODY);
      Throwable sent = failure(retrying.sendBocReturnHash("te6cckEBAQEAAgAAAEysuc0=").handle((r, e) -> e).join());
      assertThat(sent).isInstanceOf(RefusedAnswerException.class);
      assertThat(((TonApiException) sent).maybeDelivered()).as("the node may have taken the message: re-send it")
          .isTrue();
      assertThat(node.hostileAnswers()).as("a send is never retried").isEqualTo(4);
    }
  }

  private RefusedAnswerException refused() {
    long started = System.nanoTime();
    Throwable e = failure(client.getMasterchainInfo().handle((r, error) -> error).join());
    assertThat(Duration.ofNanos(System.nanoTime() - started)).isLessThan(QUICK);
    assertThat(e).isInstanceOf(RefusedAnswerException.class);
    return (RefusedAnswerException) e;
  }

  private void assertBehavesAgain() {
    assertThat(node.spoiledLeft()).isZero();
    assertThat(client.getMasterchainInfo().orTimeout(QUICK.toSeconds(), TimeUnit.SECONDS).join().seqno()).isNotNegative();
    assertThat(node.forwarded()).isPositive();
  }

  private static Throwable failure(Throwable e) {
    assertThat(e).as("the call failed").isNotNull();
    return e instanceof CompletionException && e.getCause() != null ? e.getCause() : e;
  }
}
