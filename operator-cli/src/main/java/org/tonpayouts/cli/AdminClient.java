package org.tonpayouts.cli;

import java.io.IOException;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Objects;

/**
 * The {@code payouts admin} commands' client of streams-app's admin API: one authenticated call
 * each, the answer returned as it came (status and JSON body). The token goes only into the
 * {@code Authorization} header.
 */
final class AdminClient {
  /** Resolving SETTLED reads the chain: give it time. */
  private static final Duration TIMEOUT = Duration.ofSeconds(120);
  private static final HttpClient HTTP = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

  private final URI base;
  private final String token;

  /** The answer: HTTP status and body. */
  record Answer(int status, String body) {
    boolean ok() {
      return status >= 200 && status < 300;
    }
  }

  AdminClient(URI base, String token) {
    this.base = Objects.requireNonNull(base, "base");
    this.token = Objects.requireNonNull(token, "token");
  }

  Answer get(String path) throws IOException, InterruptedException {
    return send(HttpRequest.newBuilder(uri(path)).GET());
  }

  Answer post(String path, String json) throws IOException, InterruptedException {
    return send(HttpRequest.newBuilder(uri(path)).header("Content-Type", "application/json")
        .POST(HttpRequest.BodyPublishers.ofString(json)));
  }

  /** One path segment, percent-encoded (ids may hold ':' and '.'). */
  static String segment(String value) {
    return URLEncoder.encode(value, StandardCharsets.UTF_8).replace("+", "%20");
  }

  private URI uri(String path) {
    String root = base.toString().replaceAll("/+$", "");
    return URI.create(root + path);
  }

  private Answer send(HttpRequest.Builder request) throws IOException, InterruptedException {
    HttpResponse<String> response = HTTP.send(request.timeout(TIMEOUT).header("Authorization", "Bearer " + token)
        .build(), HttpResponse.BodyHandlers.ofString());
    return new Answer(response.statusCode(), response.body());
  }
}
