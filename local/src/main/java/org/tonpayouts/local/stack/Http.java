package org.tonpayouts.local.stack;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;

/** The launcher's few HTTP calls to its children's ops endpoints. */
public final class Http {
  private static final HttpClient CLIENT = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();

  private Http() {}

  /** True when {@code url} answers 200 within a few seconds; false on any other answer or no answer. */
  public static boolean isOk(String url) {
    try {
      return get(url).statusCode() == 200;
    } catch (IOException e) {
      return false;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return false;
    }
  }

  public static HttpResponse<String> get(String url) throws IOException, InterruptedException {
    return CLIENT.send(HttpRequest.newBuilder(URI.create(url)).timeout(Duration.ofSeconds(5)).build(),
        HttpResponse.BodyHandlers.ofString());
  }
}
