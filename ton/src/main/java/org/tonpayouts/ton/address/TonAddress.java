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

  /** Parses a raw ({@code 0:<64 hex>}) or user-friendly (48 characters base64/base64url) address. */
  public static TonAddress parse(String text) {
    return parseWithFlags(text).address();
  }

  /** Parses like {@link #parse} and keeps the user-friendly flags. */
  public static ParsedAddress parseWithFlags(String text) {
    if (text == null || text.isBlank()) {
      throw new InvalidAddressException("address is empty");
    }
    String s = text.trim();
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
      throw new InvalidAddressException("raw address '" + s + "': workchain '" + wcText + "' is not a number");
    }
    checkWorkchain(wc);
    if (hex.length() != 64) {
      throw new InvalidAddressException(
          "raw address '" + s + "': account id must be 64 hex digits, got " + hex.length());
    }
    byte[] hash;
    try {
      hash = HexFormat.of().parseHex(hex);
    } catch (IllegalArgumentException e) {
      throw new InvalidAddressException("raw address '" + s + "': account id is not hexadecimal");
    }
    return new ParsedAddress(new TonAddress(wc, hash), true, false, false);
  }

  private static ParsedAddress parseFriendly(String s) {
    if (s.length() != FRIENDLY_LENGTH) {
      throw new InvalidAddressException(
          "address '" + s + "': expected 48 characters (user-friendly) or '<workchain>:<64 hex>' (raw), got "
              + s.length() + " characters");
    }
    byte[] bytes;
    try {
      bytes = s.indexOf('-') >= 0 || s.indexOf('_') >= 0
          ? Base64.getUrlDecoder().decode(s)
          : Base64.getDecoder().decode(s);
    } catch (IllegalArgumentException e) {
      throw new InvalidAddressException("address '" + s + "': not valid base64");
    }
    if (bytes.length != 36) {
      // 48 characters with '=' padding decode to fewer bytes.
      throw new InvalidAddressException("address '" + s + "': decodes to " + bytes.length + " bytes, expected 36");
    }
    int crc = ((bytes[34] & 0xff) << 8) | (bytes[35] & 0xff);
    if (crc16(bytes, 34) != crc) {
      throw new InvalidAddressException("address '" + s + "': checksum mismatch (mistyped address?)");
    }
    int tag = bytes[0] & 0xff;
    boolean testnet = (tag & TAG_TESTNET) != 0;
    tag &= ~TAG_TESTNET;
    if (tag != TAG_BOUNCEABLE && tag != TAG_NON_BOUNCEABLE) {
      throw new InvalidAddressException(
          "address '" + s + "': unknown flags byte 0x" + Integer.toHexString(bytes[0] & 0xff));
    }
    int wc = bytes[1];
    checkWorkchain(wc);
    return new ParsedAddress(
        new TonAddress(wc, Arrays.copyOfRange(bytes, 2, 34)), tag == TAG_BOUNCEABLE, testnet, true);
  }

  private static void checkWorkchain(int wc) {
    if (wc != BASECHAIN && wc != MASTERCHAIN) {
      throw new InvalidAddressException("workchain " + wc + " is not supported (only 0 and -1 exist)");
    }
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

  /** CRC16-XMODEM (poly 0x1021, init 0), the checksum of user-friendly addresses. */
  private static int crc16(byte[] data, int length) {
    int crc = 0;
    for (int i = 0; i < length; i++) {
      crc ^= (data[i] & 0xff) << 8;
      for (int bit = 0; bit < 8; bit++) {
        crc = (crc & 0x8000) != 0 ? (crc << 1) ^ 0x1021 : crc << 1;
      }
    }
    return crc & 0xffff;
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
