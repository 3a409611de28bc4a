package org.tonpayouts.ton.api;

import org.tonpayouts.ton.wallet.TextComment;

/** Reads text comments off toncenter's wire forms (base64 BOCs and base64 text); the codec is {@link TextComment}. */
final class Comments {
  private Comments() {}

  /** The comment in a base64 body BOC, or null when the body is not a text comment or cannot be read. */
  static String fromBodyBoc(String bodyBase64) {
    if (bodyBase64 == null || bodyBase64.isEmpty()) {
      return null;
    }
    try {
      return TextComment.decodeBoc(Hashes.decodeBase64(bodyBase64));
    } catch (IllegalArgumentException e) {
      return null;
    }
  }

  /** Strict UTF-8; null when the bytes are not text (then it was not a comment). */
  static String decodeUtf8(byte[] bytes) {
    return TextComment.strictUtf8(bytes);
  }
}
