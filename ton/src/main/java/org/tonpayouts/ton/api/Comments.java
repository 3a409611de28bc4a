package org.tonpayouts.ton.api;

import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.io.ByteArrayOutputStream;
import org.ton.ton4j.cell.Cell;
import org.ton.ton4j.cell.CellSlice;

/**
 * Reads the text comment out of a message body: op 0 followed by UTF-8 text, continued in the
 * first reference of each cell ("snake" layout), as wallets write transfer comments.
 */
final class Comments {
  private static final int MAX_CHAIN = 64;

  private Comments() {}

  /** The comment in a base64 body BOC, or null when the body is not a text comment. */
  static String fromBodyBoc(String bodyBase64) {
    if (bodyBase64 == null || bodyBase64.isEmpty()) {
      return null;
    }
    try {
      Cell cell = Cell.fromBoc(Hashes.decodeBase64(bodyBase64));
      CellSlice slice = CellSlice.beginParse(cell);
      if (slice.getRestBits() < 32 || slice.loadUint(32).signum() != 0) {
        return null;
      }
      ByteArrayOutputStream bytes = new ByteArrayOutputStream();
      for (int depth = 0; ; depth++) {
        if (slice.getRestBits() % 8 != 0) {
          return null;
        }
        int n = slice.getRestBits() / 8;
        for (int i = 0; i < n; i++) {
          bytes.write(slice.loadUint(8).intValue());
        }
        if (slice.getRefsCount() == 0 || depth >= MAX_CHAIN) {
          break;
        }
        slice = CellSlice.beginParse(slice.loadRefs(1).get(0));
      }
      return decodeUtf8(bytes.toByteArray());
    } catch (RuntimeException e) {
      return null;
    } catch (VirtualMachineError e) {
      throw e;
    } catch (Error e) {
      // ton4j signals some malformed cells with java.lang.Error; a body we cannot read has no comment
      return null;
    }
  }

  /** Strict UTF-8; null when the bytes are not text (then it was not a comment). */
  static String decodeUtf8(byte[] bytes) {
    try {
      return StandardCharsets.UTF_8.newDecoder()
          .onMalformedInput(CodingErrorAction.REPORT)
          .onUnmappableCharacter(CodingErrorAction.REPORT)
          .decode(ByteBuffer.wrap(bytes))
          .toString();
    } catch (CharacterCodingException e) {
      return null;
    }
  }
}
