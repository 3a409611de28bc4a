package org.tonpayouts.schemas;

import java.nio.ByteBuffer;
import java.nio.CharBuffer;
import java.nio.charset.CharsetDecoder;
import java.nio.charset.CoderResult;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;

/**
 * Decodes bytes as strict UTF-8 (RFC 3629) and says where and why it is not: the first gate of
 * {@code payout.requests}, ahead of the JSON parser, so that no parser can guess another encoding
 * (Jackson detects UTF-16 and UTF-32 on its own) and no malformed byte reaches money.
 *
 * <p>Refused: a byte-order mark (a UTF-8 one too: producers must send plain UTF-8), bytes that
 * never occur in UTF-8, continuation bytes out of place, truncated sequences, overlong encodings,
 * encoded UTF-16 surrogates (CESU-8, "modified UTF-8") and code points above U+10FFFF. The JDK's
 * decoder does the decoding; this class adds the offset and the words.
 */
public final class StrictUtf8 {

  private StrictUtf8() {
  }

  /** The outcome of {@link #decode}: the text, or where and why the bytes are not UTF-8. */
  public sealed interface Result permits Text, Malformed {
  }

  /** Well-formed UTF-8 without a byte-order mark. */
  public record Text(String text) implements Result {
  }

  /**
   * Not strict UTF-8.
   *
   * @param offset byte offset (0-based) of the first byte that is not part of a well-formed
   *     sequence
   * @param problem what is wrong there, in words, with the bytes in hex
   */
  public record Malformed(int offset, String problem) implements Result {
    /** {@code at byte offset 17: overlong encoding (C0 AF) ...}. */
    public String describe() {
      return "at byte offset " + offset + ": " + problem;
    }
  }

  /** Decodes {@code bytes}; never throws. */
  public static Result decode(byte[] bytes) {
    Malformed bom = byteOrderMark(bytes);
    if (bom != null) {
      return bom;
    }
    CharsetDecoder decoder = StandardCharsets.UTF_8.newDecoder()
        .onMalformedInput(CodingErrorAction.REPORT)
        .onUnmappableCharacter(CodingErrorAction.REPORT);
    ByteBuffer in = ByteBuffer.wrap(bytes);
    // UTF-8 never yields more UTF-16 units than bytes
    CharBuffer out = CharBuffer.allocate(bytes.length);
    CoderResult result = decoder.decode(in, out, true);
    if (!result.isError()) {
      result = decoder.flush(out);
    }
    if (result.isError()) {
      int offset = in.position();
      return new Malformed(offset, explain(bytes, offset));
    }
    out.flip();
    return new Text(out.toString());
  }

  /** The text of {@code bytes} when they are strict UTF-8, otherwise null. */
  public static String textOrNull(byte[] bytes) {
    return decode(bytes) instanceof Text text ? text.text() : null;
  }

  private static Malformed byteOrderMark(byte[] b) {
    if (startsWith(b, 0xEF, 0xBB, 0xBF)) {
      return new Malformed(0, "a UTF-8 byte-order mark (EF BB BF); send UTF-8 without a byte-order mark");
    }
    if (startsWith(b, 0x00, 0x00, 0xFE, 0xFF) || startsWith(b, 0xFF, 0xFE, 0x00, 0x00)) {
      return new Malformed(0, "a UTF-32 byte-order mark (" + hex(b, 0, 4) + "); the value must be UTF-8");
    }
    if (startsWith(b, 0xFF, 0xFE) || startsWith(b, 0xFE, 0xFF)) {
      return new Malformed(0, "a UTF-16 byte-order mark (" + hex(b, 0, 2) + "); the value must be UTF-8");
    }
    return null;
  }

  /** Why the sequence starting at {@code offset} is malformed (the JDK decoder only says that it is). */
  private static String explain(byte[] b, int offset) {
    int lead = b[offset] & 0xff;
    if (lead >= 0x80 && lead <= 0xBF) {
      return "continuation byte " + hex(b, offset, 1) + " without a lead byte";
    }
    if (lead == 0xC0 || lead == 0xC1) {
      return "overlong encoding (" + hex(b, offset, 2) + ")";
    }
    if (lead >= 0xF5) {
      return "byte " + hex(b, offset, 1) + " never occurs in UTF-8";
    }
    int length = lead >= 0xF0 ? 4 : lead >= 0xE0 ? 3 : 2;
    if (offset + 1 < b.length) {
      int second = b[offset + 1] & 0xff;
      if (lead == 0xE0 && second >= 0x80 && second <= 0x9F || lead == 0xF0 && second >= 0x80 && second <= 0x8F) {
        return "overlong encoding (" + hex(b, offset, length) + ")";
      }
      if (lead == 0xED && second >= 0xA0 && second <= 0xBF) {
        return "encoded UTF-16 surrogate (" + hex(b, offset, length) + "); surrogates are not characters";
      }
      if (lead == 0xF4 && second >= 0x90 && second <= 0xBF) {
        return "code point above U+10FFFF (" + hex(b, offset, length) + ")";
      }
    }
    for (int i = 1; i < length; i++) {
      if (offset + i >= b.length) {
        return "truncated " + length + "-byte sequence (" + hex(b, offset, i) + ") at the end of the value";
      }
      int next = b[offset + i] & 0xff;
      if (next < 0x80 || next > 0xBF) {
        return "truncated " + length + "-byte sequence (" + hex(b, offset, i + 1) + "): byte "
            + (i + 1) + " is not a continuation byte";
      }
    }
    return "malformed sequence (" + hex(b, offset, length) + ")";
  }

  private static boolean startsWith(byte[] b, int... prefix) {
    if (b.length < prefix.length) {
      return false;
    }
    for (int i = 0; i < prefix.length; i++) {
      if ((b[i] & 0xff) != prefix[i]) {
        return false;
      }
    }
    return true;
  }

  /** Up to {@code count} bytes from {@code from} as {@code "ED A0 80"}. */
  private static String hex(byte[] b, int from, int count) {
    StringBuilder s = new StringBuilder();
    for (int i = from; i < Math.min(b.length, from + count); i++) {
      if (s.length() > 0) {
        s.append(' ');
      }
      s.append(String.format("%02X", b[i] & 0xff));
    }
    return s.toString();
  }
}
