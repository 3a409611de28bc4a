package org.tonpayouts.devnet.chain;

import java.util.HexFormat;
import org.tonpayouts.ton.cell.TonCell;

/** The encodings devnet serves hashes and cells in: lowercase hex, base64 BOCs. */
public final class Cells {
  private Cells() {}

  public static String hex(byte[] bytes) {
    return HexFormat.of().formatHex(bytes);
  }

  /** Standard base64 BOC (no index, with CRC32C), as toncenter returns bodies and states. */
  public static String bocBase64(TonCell cell) {
    return cell.toBase64();
  }
}
