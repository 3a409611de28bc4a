package org.tonpayouts.devnet.api;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.Base64;
import java.util.HexFormat;
import org.tonpayouts.ton.address.InvalidAddressException;
import org.tonpayouts.ton.address.TonAddress;

/**
 * Parameters of one API call, from the query string, a JSON body or JSON-RPC {@code params}:
 * numbers may come as JSON numbers or strings, as toncenter accepts both.
 */
final class Params {
  private final ObjectNode node;

  Params(ObjectNode node) {
    this.node = node;
  }

  JsonNode raw(String name) {
    JsonNode v = node.get(name);
    return v == null || v.isNull() ? null : v;
  }

  String optional(String name) {
    JsonNode v = raw(name);
    return v == null ? null : v.asText();
  }

  String required(String name) {
    String v = optional(name);
    if (v == null || v.isEmpty()) {
      throw ApiException.validation("field required: " + name);
    }
    return v;
  }

  Long optionalLong(String name) {
    JsonNode v = raw(name);
    if (v == null || (v.isTextual() && v.asText().isEmpty())) {
      return null;
    }
    if (v.isIntegralNumber()) {
      return v.asLong();
    }
    try {
      return Long.parseLong(v.asText().trim());
    } catch (NumberFormatException e) {
      throw ApiException.validation("value is not a valid integer: " + name);
    }
  }

  long longOr(String name, long fallback) {
    Long v = optionalLong(name);
    return v == null ? fallback : v;
  }

  TonAddress address(String name) {
    String text = required(name);
    try {
      return TonAddress.parse(text);
    } catch (InvalidAddressException e) {
      throw ApiException.incorrectAddress();
    }
  }

  /**
   * An account id (the 32-byte address without workchain), as toncenter takes {@code after_hash}:
   * hex, base64, or a whole address whose workchain is ignored.
   */
  byte[] optionalAccountId(String name) {
    String text = optional(name);
    if (text == null || text.isEmpty()) {
      return null;
    }
    if (text.length() != 64 && text.length() != 44 && text.length() != 43) {
      try {
        return TonAddress.parse(text).hash();
      } catch (InvalidAddressException e) {
        throw ApiException.validation("invalid account in " + name + " (expected an address, or hex or base64 of 32 bytes)");
      }
    }
    return optionalHash(name);
  }

  /** A 32-byte hash given in base64 (standard or url-safe, 44 characters) or hex (64 characters). */
  byte[] optionalHash(String name) {
    String text = optional(name);
    if (text == null || text.isEmpty()) {
      return null;
    }
    try {
      String b64 = text.replace('-', '+').replace('_', '/');
      byte[] bytes = text.length() == 64 ? HexFormat.of().parseHex(text)
          : Base64.getDecoder().decode(b64.length() == 43 ? b64 + "=" : b64);
      if (bytes.length == 32) {
        return bytes;
      }
    } catch (IllegalArgumentException e) {
      // reported below
    }
    throw ApiException.validation("invalid hash in " + name + " (expected base64 or hex of 32 bytes)");
  }
}
