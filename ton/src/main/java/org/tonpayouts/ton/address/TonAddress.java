package org.tonpayouts.ton.address;

import java.util.Arrays;
import java.util.Base64;
import java.util.HexFormat;

/**
 * A TON account address: workchain and 256-bit account id. The one address type of the project:
 * destinations of payouts, wallet addresses and addresses read from the TON API all parse here.
 *
 * <p>Equality ignores the user-friendly flags (bounceable, testnet): they describe how to send to
 * an address, not which account it is. {@link ParsedAddress} keeps them when they matter.
 */
public final class TonAddress {
  public static final int BASECHAIN = 0;
  public static final int MASTERCHAIN = -1;

  private static final int FRIENDLY_LENGTH = 48;
  private static final int MAX_QUOTED = 70;
  private static final int TAG_BOUNCEABLE = 0x11;
  private static final int TAG_NON_BOUNCEABLE = 0x51;
  private static final int TAG_TESTNET = 0x80;

  private final int workchain;
  private final byte[] hash;

  private TonAddress(int workchain, byte[] hash) {
    this.workchain = workchain;
    this.hash = hash;
  }

  /** An address from its parts; the hash must be 32 bytes. */
  public static TonAddress of(int workchain, byte[] hash) {
    checkWorkchain(workchain);
    if (hash == null || hash.length != 32) {
      throw new InvalidAddressException(
          "account id must be 32 bytes, got " + (hash == null ? "null" : hash.length));
    }
    return new TonAddress(workchain, hash.clone());
  }

  /**
   * Parses a raw ({@code 0:<64 hex>}) or user-friendly (48 characters base64/base64url) address.
   *
   * @throws InvalidAddressException saying exactly what is wrong (workchain, length, a character
   *     that is not hex or base64url, padding, flags, checksum), quoting at most the first
   *     {@value #MAX_QUOTED} characters of the text
   */
  public static TonAddress parse(String text) {
    return parseWithFlags(text).address();
  }

  /** Parses like {@link #parse} and keeps the user-friendly flags. */
  public static ParsedAddress parseWithFlags(String text) {
    if (text == null || text.isBlank()) {
      throw new InvalidAddressException("address is empty");
    }
    String s = text.trim();
    if (s.startsWith("0x") && s.length() == 42) {
      throw new InvalidAddressException("address " + quote(s) + " looks like an Ethereum address, not a TON address");
    }
    return s.indexOf(':') >= 0 ? parseRaw(s) : parseFriendly(s);
  }

  /** True when {@code text} parses as an address. */
  public static boolean isValid(String text) {
    try {
      parse(text);
      return true;
    } catch (InvalidAddressException e) {
      return false;
    }
  }

  private static ParsedAddress parseRaw(String s) {
    int colon = s.indexOf(':');
    String wcText = s.substring(0, colon);
    String hex = s.substring(colon + 1);
    int wc;
    try {
      wc = Integer.parseInt(wcText);
    } catch (NumberFormatException e) {
      throw new InvalidAddressException("raw address " + quote(s) + ": workchain " + quote(wcText)
          + " is not a number; expected 0 (basechain) or -1 (masterchain)");
    }
    checkWorkchain(wc);
    if (hex.length() != 64) {
      throw new InvalidAddressException(
          "raw address " + quote(s) + ": account id must be 64 hex digits, got " + hex.length());
    }
    for (int i = 0; i < hex.length(); i++) {
      if (Character.digit(hex.charAt(i), 16) < 0) {
        throw new InvalidAddressException("raw address " + quote(s) + ": account id is not hexadecimal: "
            + describe(hex.charAt(i)) + " at position " + (colon + 1 + i));
      }
    }
    return new ParsedAddress(new TonAddress(wc, HexFormat.of().parseHex(hex)), true, false, false);
  }

  private static ParsedAddress parseFriendly(String s) {
    if (s.length() != FRIENDLY_LENGTH) {
      throw new InvalidAddressException("address " + quote(s) + " has " + s.length()
          + " characters: a user-friendly address has 48, a raw one is '<workchain>:<64 hex digits>'");
    }
    boolean standard = false;
    boolean url = false;
    for (int i = 0; i < s.length(); i++) {
      char c = s.charAt(i);
      if (c == '=') {
        throw new InvalidAddressException("user-friendly address " + quote(s)
            + ": '=' padding at position " + i + "; 48 characters need no padding (36 bytes)");
      }
      standard |= c == '+' || c == '/';
      url |= c == '-' || c == '_';
      if (!(c >= 'A' && c <= 'Z' || c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || c == '+' || c == '/' || c == '-'
          || c == '_')) {
        throw new InvalidAddressException("user-friendly address " + quote(s) + ": " + describe(c) + " at position " + i
            + " is not a base64url character (A-Z a-z 0-9 - _, or + / in standard base64)");
      }
    }
    if (standard && url) {
      throw new InvalidAddressException("user-friendly address " + quote(s)
          + " mixes the base64 ('+', '/') and base64url ('-', '_') alphabets");
    }
    byte[] bytes = url ? Base64.getUrlDecoder().decode(s) : Base64.getDecoder().decode(s);
    int crc = ((bytes[34] & 0xff) << 8) | (bytes[35] & 0xff);
    if (crc16(bytes, 34) != crc) {
      throw new InvalidAddressException("user-friendly address " + quote(s) + ": checksum mismatch (mistyped address?)");
    }
    int tag = bytes[0] & 0xff;
    boolean testnet = (tag & TAG_TESTNET) != 0;
    tag &= ~TAG_TESTNET;
    if (tag != TAG_BOUNCEABLE && tag != TAG_NON_BOUNCEABLE) {
      throw new InvalidAddressException("user-friendly address " + quote(s) + ": unknown flags byte 0x"
          + Integer.toHexString(bytes[0] & 0xff) + " (expected 0x11 bounceable or 0x51 non-bounceable, plus 0x80 for"
          + " testnet)");
    }
    int wc = bytes[1];
    checkWorkchain(wc);
    return new ParsedAddress(
        new TonAddress(wc, Arrays.copyOfRange(bytes, 2, 34)), tag == TAG_BOUNCEABLE, testnet, true);
  }

  private static void checkWorkchain(int wc) {
    if (wc != BASECHAIN && wc != MASTERCHAIN) {
      throw new InvalidAddressException(
          "workchain " + wc + " is not supported: TON has workchains 0 (basechain) and -1 (masterchain)");
    }
  }

  /** {@code 'text'}, cut to {@value #MAX_QUOTED} characters: a message must stay short whatever it is given. */
  private static String quote(String text) {
    return "'" + (text.length() > MAX_QUOTED ? text.substring(0, MAX_QUOTED) + "..." : text) + "'";
  }

  /** {@code 'g'}, or {@code U+0000} for a character that would not show. */
  private static String describe(char c) {
    return c > ' ' && c < 0x7f ? "'" + c + "'" : String.format("U+%04X", (int) c);
  }

  public int workchain() {
    return workchain;
  }

  /** The 32-byte account id (a copy). */
  public byte[] hash() {
    return hash.clone();
  }

  /** {@code <workchain>:<64 lowercase hex>}, the form used as a stable key in storage and logs. */
  public String toRaw() {
    return workchain + ":" + HexFormat.of().formatHex(hash);
  }

  /** User-friendly form, base64url as wallets show it (EQ.../UQ... on mainnet, kQ.../0Q... on testnet). */
  public String toFriendly(boolean bounceable, boolean testnet) {
    byte[] bytes = new byte[36];
    int tag = bounceable ? TAG_BOUNCEABLE : TAG_NON_BOUNCEABLE;
    if (testnet) {
      tag |= TAG_TESTNET;
    }
    bytes[0] = (byte) tag;
    bytes[1] = (byte) workchain;
    System.arraycopy(hash, 0, bytes, 2, 32);
    int crc = crc16(bytes, 34);
    bytes[34] = (byte) (crc >>> 8);
    bytes[35] = (byte) crc;
    return Base64.getUrlEncoder().encodeToString(bytes);
  }

  /** CRC16-XMODEM of each byte value: the checksum a byte at the top of the register contributes. */
  private static final int[] CRC16_TABLE = crc16Table();

  private static int[] crc16Table() {
    int[] table = new int[256];
    for (int b = 0; b < 256; b++) {
      int crc = b << 8;
      for (int bit = 0; bit < 8; bit++) {
        crc = (crc & 0x8000) != 0 ? (crc << 1) ^ 0x1021 : crc << 1;
      }
      table[b] = crc & 0xffff;
    }
    return table;
  }

  /**
   * CRC16-XMODEM (poly 0x1021, init 0), the checksum of user-friendly addresses, a byte at a time
   * (the poller parses the addresses of every message in the blocks it reads; bit by bit the checksum
   * took 4 % of its CPU at W=1000).
   */
  private static int crc16(byte[] data, int length) {
    int crc = 0;
    for (int i = 0; i < length; i++) {
      crc = ((crc << 8) ^ CRC16_TABLE[((crc >>> 8) ^ data[i]) & 0xff]) & 0xffff;
    }
    return crc;
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof TonAddress other && workchain == other.workchain && Arrays.equals(hash, other.hash);
  }

  @Override
  public int hashCode() {
    return 31 * workchain + Arrays.hashCode(hash);
  }

  /** The raw form. */
  @Override
  public String toString() {
    return toRaw();
  }

}
