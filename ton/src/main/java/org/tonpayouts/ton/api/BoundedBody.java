package org.tonpayouts.ton.api;

import java.io.ByteArrayOutputStream;
import java.net.http.HttpHeaders;
import java.net.http.HttpResponse;
import java.nio.ByteBuffer;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.Flow;

/**
 * Reads a TON API answer's body into memory, at most {@code maxBytes} of it: an answer whose
 * Content-Length is larger is refused before its body is read, one that keeps coming is refused as
 * soon as the cap is passed (the JDK's {@code ofByteArray} would buffer all of it first), and a 2xx
 * answer whose Content-Type is not JSON is refused unread. Each refusal fails the call with a
 * {@link RefusedAnswerException} and cancels the body, which closes the connection. Error answers
 * (4xx, 5xx) are read like any other, bounded too: their text says what went wrong, and a proxy's
 * HTML 502 stays a server error. What every answer being read holds counts against the client's
 * {@link AnswerBudget}, so many hostile answers at once cannot add up past it either.
 */
final class BoundedBody implements HttpResponse.BodyHandler<byte[]> {
  private final String method;
  private final long maxBytes;
  private final boolean send;
  private final AnswerBudget budget;

  BoundedBody(String method, long maxBytes, boolean send, AnswerBudget budget) {
    this.method = method;
    this.maxBytes = maxBytes;
    this.send = send;
    this.budget = budget;
  }

  @Override
  public HttpResponse.BodySubscriber<byte[]> apply(HttpResponse.ResponseInfo info) {
    int status = info.statusCode();
    OptionalLong declared = contentLength(info.headers());
    if (declared.isPresent() && declared.getAsLong() > maxBytes) {
      return new Refusing(refusal(status, "the answer's Content-Length " + declared.getAsLong()
          + " is larger than the limit of " + maxBytes + " bytes"));
    }
    Optional<String> type = info.headers().firstValue("Content-Type");
    if (status >= 200 && status < 300 && type.isPresent() && !isJson(type.get())) {
      return new Refusing(refusal(status, "the answer is " + printable(type.get()) + ", not JSON: not a TON API"
          + " (a captive portal or a proxy's page?)"));
    }
    return new Capped(status);
  }

  private RefusedAnswerException refusal(int status, String detail) {
    return new RefusedAnswerException(method, status, detail, null, send);
  }

  private static OptionalLong contentLength(HttpHeaders headers) {
    try {
      return headers.firstValueAsLong("Content-Length");
    } catch (NumberFormatException e) {
      return OptionalLong.empty(); // the JDK reads such a body to its end or its close: the cap applies
    }
  }

  /** {@code application/json} or a {@code +json} type, with any parameters ({@code charset=utf-8}). */
  static boolean isJson(String contentType) {
    String type = contentType.split(";", 2)[0].strip().toLowerCase(Locale.ROOT);
    return type.equals("application/json") || (type.startsWith("application/") && type.endsWith("+json"));
  }

  private static String printable(String headerValue) {
    String s = headerValue.replaceAll("[^\\x20-\\x7e]", "?");
    return "'" + (s.length() > 80 ? s.substring(0, 80) + "..." : s) + "'";
  }

  /** Fails at once and cancels the body: nothing of it is read. */
  private static final class Refusing implements HttpResponse.BodySubscriber<byte[]> {
    private final CompletableFuture<byte[]> body = new CompletableFuture<>();
    private final RefusedAnswerException refusal;

    Refusing(RefusedAnswerException refusal) {
      this.refusal = refusal;
    }

    @Override
    public CompletionStage<byte[]> getBody() {
      return body;
    }

    @Override
    public void onSubscribe(Flow.Subscription subscription) {
      subscription.cancel();
      body.completeExceptionally(refusal);
    }

    @Override
    public void onNext(List<ByteBuffer> item) {
      // cancelled: nothing more is wanted
    }

    @Override
    public void onError(Throwable throwable) {
      body.completeExceptionally(refusal);
    }

    @Override
    public void onComplete() {
      body.completeExceptionally(refusal);
    }
  }

  /** Collects the body until it ends, or fails once more than {@code maxBytes} arrived. */
  private final class Capped implements HttpResponse.BodySubscriber<byte[]> {
    private final CompletableFuture<byte[]> body = new CompletableFuture<>();
    private final ByteArrayOutputStream received = new ByteArrayOutputStream();
    private final int status;
    private Flow.Subscription subscription;
    /** Whether what {@code received} holds went back to the budget (once: signals may follow a cancel). */
    private boolean released;

    Capped(int status) {
      this.status = status;
    }

    @Override
    public CompletionStage<byte[]> getBody() {
      return body;
    }

    @Override
    public void onSubscribe(Flow.Subscription s) {
      subscription = s;
      s.request(Long.MAX_VALUE);
    }

    @Override
    public void onNext(List<ByteBuffer> buffers) {
      if (body.isDone()) {
        return;
      }
      for (ByteBuffer buffer : buffers) {
        if ((long) received.size() + buffer.remaining() > maxBytes) {
          stop(refusal(status, "the answer is larger than the limit of " + maxBytes + " bytes; stopped reading it"));
          return;
        }
        if (!budget.take(buffer.remaining())) {
          stop(refusal(status, "the answers being read at once would hold more than " + budget.maxBytes()
              + " bytes together; stopped reading this one"));
          return;
        }
        byte[] chunk = new byte[buffer.remaining()];
        buffer.get(chunk);
        received.write(chunk, 0, chunk.length);
      }
    }

    @Override
    public void onError(Throwable throwable) {
      release();
      body.completeExceptionally(throwable);
    }

    @Override
    public void onComplete() {
      release(); // handed to the parser, which is done with it right away
      body.complete(received.toByteArray());
    }

    private void stop(RefusedAnswerException refusal) {
      subscription.cancel();
      release();
      body.completeExceptionally(refusal);
    }

    private void release() {
      if (!released) {
        released = true;
        budget.give(received.size());
      }
    }
  }
}
