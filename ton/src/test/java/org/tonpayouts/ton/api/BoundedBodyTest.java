package org.tonpayouts.ton.api;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.http.HttpClient;
import java.net.http.HttpHeaders;
import java.net.http.HttpResponse;
import java.nio.ByteBuffer;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletionException;
import java.util.concurrent.Flow;
import org.junit.jupiter.api.Test;

/**
 * How an answer's body is read, chunk by chunk as the JDK hands it over: up to the cap, within the
 * client's budget for all answers being read, JSON only when it is a success; every refusal cancels
 * the body and gives its bytes back to the budget. (HostileAnswersTest in devnet does it over the
 * wire.)
 */
class BoundedBodyTest {
  private static final long CAP = 1000;

  private final AnswerBudget budget = new AnswerBudget(1500);

  @Test
  void shouldReadAnAnswerWithinTheCapAndGiveItsBytesBack() {
    Read read = read(200, Map.of("Content-Type", List.of("application/json; charset=utf-8")));

    read.chunk(400).chunk(400).complete();

    assertThat(read.subscriber.getBody().toCompletableFuture().join()).hasSize(800);
    assertThat(budget.held()).isZero();
  }

  @Test
  void shouldStopAtTheCapCancellingTheBody() {
    Read read = read(200, Map.of());

    read.chunk(600).chunk(600);

    assertThat(read.cancelled).isTrue();
    assertThat(refusal(read)).hasMessage("m: HTTP 200: the answer is larger than the limit of 1000 bytes; stopped"
        + " reading it");
    read.complete(); // a signal after the cancel changes nothing
    assertThat(budget.held()).isZero();
  }

  @Test
  void shouldStopAnAnswerThatWouldTakeTheBudgetPastItsLimit() {
    Read first = read(200, Map.of());
    Read second = read(200, Map.of());

    first.chunk(900);
    second.chunk(500).chunk(200);

    assertThat(second.cancelled).isTrue();
    assertThat(refusal(second)).hasMessageContaining("the answers being read at once would hold more than 1500 bytes");
    assertThat(budget.held()).as("the first still holds its part").isEqualTo(900);
    first.complete();
    assertThat(budget.held()).isZero();
  }

  @Test
  void shouldRefuseALargeContentLengthOrANonJsonSuccessUnreadButReadAnHtmlError() {
    Read huge = read(200, Map.of("Content-Length", List.of("1001")));
    Read html = read(200, Map.of("Content-Type", List.of("text/html")));
    Read badGateway = read(502, Map.of("Content-Type", List.of("text/html")));

    assertThat(huge.cancelled).isTrue();
    assertThat(refusal(huge)).hasMessageContaining("Content-Length 1001 is larger than the limit of 1000 bytes");
    assertThat(html.cancelled).isTrue();
    assertThat(refusal(html)).hasMessageContaining("the answer is 'text/html', not JSON");
    badGateway.chunk(100).complete();
    assertThat(badGateway.subscriber.getBody().toCompletableFuture().join()).hasSize(100);
    assertThat(BoundedBody.isJson("application/problem+json")).isTrue();
    assertThat(BoundedBody.isJson("text/json")).isFalse();
  }

  private RefusedAnswerException refusal(Read read) {
    try {
      read.subscriber.getBody().toCompletableFuture().join();
    } catch (CompletionException e) {
      assertThat(e.getCause()).isInstanceOf(RefusedAnswerException.class);
      RefusedAnswerException refused = (RefusedAnswerException) e.getCause();
      assertThat(refused.isTransient()).isTrue();
      return refused;
    }
    throw new AssertionError("the body was read");
  }

  private Read read(int status, Map<String, List<String>> headers) {
    HttpResponse.BodySubscriber<byte[]> subscriber = new BoundedBody("m", CAP, false, budget)
        .apply(new HttpResponse.ResponseInfo() {
          @Override
          public int statusCode() {
            return status;
          }

          @Override
          public HttpHeaders headers() {
            return HttpHeaders.of(headers, (name, value) -> true);
          }

          @Override
          public HttpClient.Version version() {
            return HttpClient.Version.HTTP_1_1;
          }
        });
    return new Read(subscriber);
  }

  /** One body being read, fed the way the JDK's client feeds a subscriber. */
  private static final class Read {
    final HttpResponse.BodySubscriber<byte[]> subscriber;
    boolean cancelled;

    Read(HttpResponse.BodySubscriber<byte[]> subscriber) {
      this.subscriber = subscriber;
      subscriber.onSubscribe(new Flow.Subscription() {
        @Override
        public void request(long n) {
          // the test pushes chunks itself
        }

        @Override
        public void cancel() {
          cancelled = true;
        }
      });
    }

    Read chunk(int bytes) {
      subscriber.onNext(List.of(ByteBuffer.allocate(bytes)));
      return this;
    }

    void complete() {
      subscriber.onComplete();
    }
  }
}
