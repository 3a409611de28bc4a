package org.tonpayouts.devnet;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Map;
import java.util.stream.Collectors;

/** Plain HTTP + Jackson access to a devnet, as any toncenter client would see it. */
final class Http {
  static final ObjectMapper JSON = new ObjectMapper();

  record Response(int status, JsonNode body) {
    JsonNode result() {
      return body.get("result");
    }

    String error() {
      return body.path("error").asText(null);
    }
  }

  private final HttpClient client = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
  private final URI base;
  /** Path of the toncenter API of the node this talks to. */
  private final String api;

  Http(Devnet devnet) {
    this(devnet.baseUrl(), "/api/v2/");
  }

  /** Talks to {@code node}'s API (admin requests still go to the devnet's {@code /admin/}). */
  Http(DevnetNode node) {
    this(node.apiUrl().resolve("/"), node.apiUrl().getPath());
  }

  private Http(URI base, String api) {
    this.base = base;
    this.api = api;
  }

  /** {@code GET <api>/<method>?params}. */
  Response get(String method, Map<String, String> params) {
    String query = params.entrySet().stream()
        .map(e -> URLEncoder.encode(e.getKey(), StandardCharsets.UTF_8) + "="
            + URLEncoder.encode(e.getValue(), StandardCharsets.UTF_8))
        .collect(Collectors.joining("&"));
    return send(HttpRequest.newBuilder(base.resolve(api + method + (query.isEmpty() ? "" : "?" + query))).GET());
  }

  /** {@code POST <api>/<method>} with a JSON body. */
  Response post(String method, Object body) {
    return postPath(api + method, body);
  }

  /** {@code POST <api>/jsonRPC} with {@code id} (a number or a string). */
  Response rpc(Object id, String method, Object params) {
    ObjectNode request = JSON.createObjectNode();
    request.set("id", JSON.valueToTree(id));
    request.put("jsonrpc", "2.0");
    request.put("method", method);
    request.set("params", JSON.valueToTree(params));
    return postPath(api + "jsonRPC", request);
  }

  Response admin(String path, Object body) {
    return body == null
        ? send(HttpRequest.newBuilder(base.resolve("/admin/" + path)).GET())
        : postPath("/admin/" + path, body);
  }

  /** The wallet's seqno as getWalletInformation reports it (-1 when it reports none). */
  long walletSeqno(String address) {
    Response r = get("getWalletInformation", Map.of("address", address));
    return r.result().has("seqno") ? r.result().get("seqno").asLong() : -1;
  }

  Response postPath(String path, Object body) {
    try {
      byte[] bytes = JSON.writeValueAsBytes(body);
      return send(HttpRequest.newBuilder(base.resolve(path))
          .header("Content-Type", "application/json")
          .POST(HttpRequest.BodyPublishers.ofByteArray(bytes)));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  Response send(HttpRequest.Builder request) {
    try {
      HttpResponse<String> response = sendRaw(request);
      JsonNode body = response.body().isEmpty() ? JSON.nullNode() : parse(response.body());
      return new Response(response.statusCode(), body);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  HttpResponse<String> sendRaw(HttpRequest.Builder request) throws IOException {
    try {
      return client.send(request.timeout(Duration.ofSeconds(10)).build(), HttpResponse.BodyHandlers.ofString());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IOException("interrupted", e);
    }
  }

  URI uri(String path) {
    return base.resolve(path);
  }

  private static JsonNode parse(String text) {
    try {
      return JSON.readTree(text);
    } catch (IOException e) {
      return JSON.getNodeFactory().textNode(text);
    }
  }
}
