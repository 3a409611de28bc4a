package org.tonpayouts.devnet.chain;

import java.util.HexFormat;

/** Lowercase hex, the encoding devnet serves hashes in (cells serve their own BOCs: {@code TonCell.toBase64}). */
public final class Cells {
  private Cells() {}

  public static String hex(byte[] bytes) {
    return HexFormat.of().formatHex(bytes);
  }
}
