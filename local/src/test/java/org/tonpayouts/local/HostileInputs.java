package org.tonpayouts.local;

import java.io.ByteArrayOutputStream;
import java.nio.charset.Charset;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Random;
import org.tonpayouts.ton.address.TonAddress;

/**
 * Seeded generator of {@code payout.requests} values that must all be refused: random bytes, a valid
 * request mutated in ways that can never stay valid (a byte that may not appear, a cut, another
 * encoding), and well-formed requests broken in one field (limits, comments, keys, addresses,
 * shape). Each input carries the record key to send it with.
 */
final class HostileInputs {
  /** Builds a request's JSON: request id, wallet index, transfers JSON. */
  @FunctionalInterface
  interface RequestJson {
    String build(String requestId, int wallet, String transfers);
  }

  /** Builds a transfer's JSON: transfer id, recipient index, amount digits, comment JSON literal or null. */
  @FunctionalInterface
  interface TransferJson {
    String build(String id, int recipient, String amount, String comment);
  }

  /** One input: its record key (may be null) and its value bytes. */
  record Input(String key, byte[] bytes) {}

  private static final Charset UTF_32LE = Charset.forName("UTF-32LE");

  private final Random random;
  private final RequestJson request;
  private final TransferJson transfer;

  HostileInputs(Random random, RequestJson request, TransferJson transfer) {
    this.random = random;
    this.request = request;
    this.transfer = transfer;
  }

  /** The {@code n}-th hostile input for wallet {@code wallet} (whose record key is {@code walletKey}). */
  Input next(int n, int wallet, String walletKey) {
    String base = request.build("h-" + n, wallet, transfer.build("t", 6 + random.nextInt(5), "1000000", "\"memo " + n + "\""));
    return switch (random.nextInt(10)) {
      case 0 -> new Input(anyKey(walletKey), randomBytes(random.nextInt(300)));
      case 1, 2 -> new Input(walletKey, insertForbiddenByte(base.getBytes(StandardCharsets.UTF_8)));
      case 3 -> new Input(walletKey, Arrays.copyOf(base.getBytes(StandardCharsets.UTF_8), random.nextInt(base.length())));
      case 4 -> new Input(walletKey, otherEncoding(base));
      case 5, 6, 7, 8 -> brokenField(n, wallet, walletKey);
      default -> random.nextInt(20) == 0
          ? new Input(anyKey(walletKey), randomBytes(10_000 + random.nextInt(190_000)))
          : new Input(walletKey, insertForbiddenByte(randomJsonish(n, wallet)));
    };
  }

  private byte[] randomBytes(int length) {
    byte[] bytes = new byte[length];
    random.nextBytes(bytes);
    return bytes;
  }

  /** The wallet's key, no key, or junk (up to 10,000 characters). */
  private String anyKey(String walletKey) {
    return switch (random.nextInt(4)) {
      case 0 -> null;
      case 1 -> "k\u0000\u202e" + random.nextInt();
      case 2 -> "x".repeat(1 + random.nextInt(10_000));
      default -> walletKey;
    };
  }

  /**
   * {@code ascii} with one byte inserted that cannot appear there: a C0 control other than TAB, LF
   * and CR (illegal in JSON inside and outside strings) or any byte of 0x80 and up (ASCII around it
   * makes it malformed UTF-8).
   */
  private byte[] insertForbiddenByte(byte[] ascii) {
    int b;
    do {
      b = random.nextInt(256);
    } while (b == '\t' || b == '\n' || b == '\r' || b >= 0x20 && b < 0x80);
    int at = random.nextInt(ascii.length + 1);
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    out.write(ascii, 0, at);
    out.write(b);
    out.write(ascii, at, ascii.length - at);
    return out.toByteArray();
  }

  private byte[] otherEncoding(String json) {
    return switch (random.nextInt(6)) {
      case 0 -> ("\uFEFF" + json).getBytes(StandardCharsets.UTF_16LE);
      case 1 -> json.getBytes(StandardCharsets.UTF_16LE);
      case 2 -> ("\uFEFF" + json).getBytes(StandardCharsets.UTF_16BE);
      case 3 -> json.getBytes(UTF_32LE);
      case 4 -> ("\uFEFF" + json).getBytes(StandardCharsets.UTF_8);
      default -> json.getBytes(StandardCharsets.UTF_16BE);
    };
  }

  /** A well-formed request from {@code wallet} with exactly one thing wrong. */
  private Input brokenField(int n, int wallet, String walletKey) {
    String id = "h-" + n;
    int to = 6 + random.nextInt(5);
    String good = transfer.build("t", to, "1000000", null);
    String json = switch (random.nextInt(13)) {
      case 0 -> request.build(id, wallet, transfer.build("t", to, Long.toString(IntakeStack.MAX_TRANSFER_NANO + 1
          + random.nextInt(1_000_000)), null));
      case 1 -> request.build(id, wallet, transfer.build("a", to, Long.toString(8 * IntakeStack.TON), null) + ","
          + transfer.build("b", to, Long.toString(8 * IntakeStack.TON), null));
      case 2 -> request.build(id, wallet, transfer.build("t", to, "1000000",
          "\"memo" + String.format("\\u%04x", forbiddenCodePoint()) + "x\""));
      case 3 -> request.build(id, wallet, transfer.build("t", to, "1000000",
          "\"memo" + String.format("\\u%04x", 0xD800 + random.nextInt(0x800)) + "x\""));
      case 4 -> request.build(id, wallet, good.replace("\"kind\"", "\"knd\":1,\"kind\""));
      case 5 -> request.build(id, wallet, "");
      case 6 -> request.build(id, wallet, String.join(",", good, good.replace("\"t\"", "\"u\""),
          good.replace("\"t\"", "\"v\""), good.replace("\"t\"", "\"w\""), good.replace("\"t\"", "\"x\"")));
      case 7 -> request.build(id, wallet, good.replaceFirst("\"destination\":\"[^\"]*\"",
          java.util.regex.Matcher.quoteReplacement("\"destination\":\"" + badAddress() + "\"")));
      case 8 -> request.build(id, wallet, good + "," + good);
      case 9 -> request.build(id + " x", wallet, good);
      case 10 -> request.build(id, wallet, good).replace("\"schemaVersion\":1,", "\"schemaVersion\":1,\"schemaVersion\":1,");
      case 11 -> request.build(id, wallet, good.replaceFirst("\"destination\":\"[^\"]*\"",
          java.util.regex.Matcher.quoteReplacement("\"destination\":\"" + testnetFlagged(good) + "\"")));
      default -> request.build(id, wallet, good);
    };
    // the last case is valid JSON for the wallet sent under another key
    String key = json.equals(request.build(id, wallet, good)) ? "not-" + walletKey : walletKey;
    return new Input(key, json.getBytes(StandardCharsets.UTF_8));
  }

  /** A C0 (not TAB), DEL, C1, bidirectional control, line separator or invisible character. */
  private int forbiddenCodePoint() {
    int[] pool = {0x00, 0x0A, 0x0D, 0x1B, 0x1F, 0x7F, 0x85, 0x9B, 0x202A, 0x202E, 0x2066, 0x2069, 0x200E, 0x200F,
        0x061C, 0x2028, 0x200B, 0x200C, 0x200D, 0x2060, 0xFEFF, 0x180E, 0x034F, 0x3164, 0xFFA0, 0xFFF9, 0x206A};
    return pool[random.nextInt(pool.length)];
  }

  /** The destination of {@code transferJson} in its testnet-flagged form, which mainnet's intake refuses. */
  private String testnetFlagged(String transferJson) {
    java.util.regex.Matcher destination = java.util.regex.Pattern.compile("\"destination\":\"([^\"]*)\"")
        .matcher(transferJson);
    if (!destination.find()) {
      throw new IllegalArgumentException("no destination in " + transferJson);
    }
    return TonAddress.parse(destination.group(1)).toFriendly(random.nextBoolean(), true);
  }

  /** Text no address parser accepts: wrong workchain, wrong length, or characters outside base64url. */
  private String badAddress() {
    return switch (random.nextInt(3)) {
      case 0 -> (2 + random.nextInt(100)) + ":" + "ab".repeat(32);
      case 1 -> "0:" + "ab".repeat(random.nextInt(32));
      default -> "EQ" + "!@#$%^&*".charAt(random.nextInt(8)) + "A".repeat(45);
    };
  }

  /** ASCII JSON-like noise around a request (a forbidden byte is inserted into it). */
  private byte[] randomJsonish(int n, int wallet) {
    String alphabet = "{}[]\":,0123456789-.eEtrufalsn ";
    StringBuilder s = new StringBuilder(request.build("h-" + n, wallet, transfer.build("t", 6, "1000000", null)));
    for (int flips = 1 + random.nextInt(5); flips > 0; flips--) {
      s.setCharAt(random.nextInt(s.length()), alphabet.charAt(random.nextInt(alphabet.length())));
    }
    return s.toString().getBytes(StandardCharsets.US_ASCII);
  }
}
