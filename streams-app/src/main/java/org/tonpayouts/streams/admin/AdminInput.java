package org.tonpayouts.streams.admin;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.sun.net.httpserver.HttpExchange;
import java.io.IOException;
import java.io.InputStream;
import java.net.InetSocketAddress;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import org.tonpayouts.schemas.Json;
import org.tonpayouts.streams.admin.AdminViews.ResolveRequest;
import org.tonpayouts.streams.ledger.audit.Actor;

/**
 * What the admin API takes from a call, checked: the JSON body (bounded, unknown fields refused),
 * ids, hashes, limits, the operator the call is made by and from where. Bad input is a {@link
 * BadInput} (answered 400), a call the caller may not make a {@link Forbidden} (403).
 */
final class AdminInput {
  static final int MAX_BODY_BYTES = 64 * 1024;
  static final int MAX_OPERATOR_CHARS = 100;
  static final int MAX_REASON_CHARS = 1000;
  static final String RESOLVE_SHAPE = "{\"outcome\": \"SETTLED\"|\"FAILED\", \"txHash\": ..., \"operator\":"
      + " ..., \"reason\": ...}";
  static final String RELEASE_SHAPE = "{\"operator\": ..., \"reason\": ...}";
  static final String PAUSE_SHAPE = "{\"scope\": \"deployment\"|\"<subwalletId>\", \"operator\": ...,"
      + " \"reason\": ...}";
  static final String DECISION_SHAPE = "{\"operator\": ..., \"reason\": ...}";
  private static final Pattern ID = Pattern.compile("[A-Za-z0-9._:-]{1,128}");
  private static final Pattern HASH = Pattern.compile("[0-9a-f]{64}");
  private static final ObjectMapper JSON = Json.newMapper().enable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES);

  private AdminInput() {}

  /** Bad input: answered 400 with the message. */
  static final class BadInput extends RuntimeException {
    BadInput(String message) {
      super(message);
    }
  }

  /** The caller may not do this (another operator's name, approving one's own request): answered 403. */
  static final class Forbidden extends RuntimeException {
    Forbidden(String message) {
      super(message);
    }
  }

  static int limit(String limitParam) {
    int limit = 100;
    if (limitParam != null) {
      try {
        limit = Integer.parseInt(limitParam);
      } catch (NumberFormatException e) {
        throw new BadInput("limit must be a number, got '" + limitParam + "'");
      }
      if (limit < 1 || limit > 1000) {
        throw new BadInput("limit must be 1 to 1000, got " + limit);
      }
    }
    return limit;
  }
  /**
   * Who the call is made by: the authenticated operator (a body naming someone else is refused), or
   * with the shared token the name typed in the body, marked as such; with the caller's address.
   */
  static Actor actor(Authentication caller, String typed, HttpExchange exchange) {
    String address = address(exchange);
    if (caller instanceof Authentication.Operator operator) {
      if (typed != null && !typed.isBlank() && !typed.strip().equals(operator.name())) {
        throw new Forbidden("the body names operator '" + limited(typed.strip(), "operator", MAX_OPERATOR_CHARS)
            + "' but the token is " + operator.name() + "'s: leave operator out (the authenticated operator is"
            + " recorded) or name yourself");
      }
      return Actor.operator(operator.name(), address);
    }
    return Actor.sharedToken(limited(required(typed, "operator"), "operator", MAX_OPERATOR_CHARS), address);
  }
  /** The caller's address as the connection shows it (no X-Forwarded-For: a header anyone can write). */
  static String address(HttpExchange exchange) {
    InetSocketAddress remote = exchange.getRemoteAddress();
    String host = remote.getAddress() != null ? remote.getAddress().getHostAddress() : remote.getHostString();
    return (host.indexOf(':') >= 0 ? "[" + host + "]" : host) + ":" + remote.getPort();
  }
  static <T> T body(HttpExchange exchange, Class<T> type, String shape) {
    T body = optionalBody(exchange, type, shape);
    if (body == null) {
      throw new BadInput("a JSON body is required: " + shape);
    }
    return body;
  }
  /** The body, or null when there is none. */
  static <T> T optionalBody(HttpExchange exchange, Class<T> type, String shape) {
    byte[] bytes;
    try (InputStream in = exchange.getRequestBody()) {
      bytes = in.readNBytes(MAX_BODY_BYTES + 1);
    } catch (IOException e) {
      throw new BadInput("cannot read the request body: " + e.getMessage());
    }
    if (bytes.length > MAX_BODY_BYTES) {
      throw new BadInput("the request body is larger than " + MAX_BODY_BYTES + " bytes");
    }
    if (bytes.length == 0) {
      return null;
    }
    try {
      return JSON.readValue(bytes, type);
    } catch (JsonProcessingException e) {
      throw new BadInput("the body is not " + (type == ResolveRequest.class ? "a resolution" : shape) + ": "
          + e.getOriginalMessage());
    } catch (IOException e) {
      throw new BadInput("cannot read the request body: " + e.getMessage());
    }
  }
  static String required(String value, String name) {
    if (value == null || value.isBlank()) {
      throw new BadInput(name + " is required");
    }
    return value.strip();
  }
  static String limited(String value, String name, int max) {
    if (value.length() > max) {
      throw new BadInput(name + " must be at most " + max + " characters, got " + value.length());
    }
    if (value.chars().anyMatch(ch -> Character.isISOControl(ch))) {
      throw new BadInput(name + " must not contain control characters");
    }
    return value;
  }
  static String hash(String value, String name) {
    String hash = value.strip().toLowerCase(Locale.ROOT);
    if (!HASH.matcher(hash).matches()) {
      throw new BadInput(name + " must be 64 hex digits, got '" + value + "'");
    }
    return hash;
  }
  static void id(String value, String name) {
    if (!ID.matcher(value).matches()) {
      throw new BadInput(name + " must be 1 to 128 characters of A-Z a-z 0-9 . _ : -, got '" + value + "'");
    }
  }
  /** The decoded path segments; empty when a percent-escape is malformed. */
  static Optional<List<String>> segments(String rawPath) {
    try {
      return Optional.of(Arrays.stream(rawPath.split("/")).filter(s -> !s.isEmpty())
          .map(s -> URLDecoder.decode(s.replace("+", "%2B"), StandardCharsets.UTF_8)).toList());
    } catch (IllegalArgumentException e) {
      return Optional.empty();
    }
  }
  static Map<String, String> query(HttpExchange exchange) {
    String raw = exchange.getRequestURI().getRawQuery();
    if (raw == null || raw.isEmpty()) {
      return Map.of();
    }
    try {
      return Arrays.stream(raw.split("&")).map(p -> p.split("=", 2)).filter(p -> p.length == 2)
          .collect(Collectors.toMap(p -> URLDecoder.decode(p[0], StandardCharsets.UTF_8),
              p -> URLDecoder.decode(p[1], StandardCharsets.UTF_8), (a, b) -> b));
    } catch (IllegalArgumentException e) {
      // URLDecoder's word for a % not followed by two hex digits
      throw new BadInput("the query string has a malformed percent-escape (% must be followed by two hex digits)");
    }
  }
}
