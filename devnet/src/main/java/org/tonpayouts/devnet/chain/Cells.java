package org.tonpayouts.devnet.chain;

import java.util.Base64;
import java.util.HexFormat;
import org.tonpayouts.ton.cell.TonCell;

/** The encodings devnet serves cells and hashes in: lowercase hex, base64, base64 BOCs. */
public final class Cells {
  private Cells() {}

  public static String hex(byte[] bytes) {
    return HexFormat.of().formatHex(bytes);
  }

  public static String base64(byte[] bytes) {
    return Base64.getEncoder().encodeToString(bytes);
  }

  /** Standard base64 BOC (no index, with CRC32C), as toncenter returns bodies and states. */
  public static String bocBase64(TonCell cell) {
    return cell.toBase64();
  }
}
