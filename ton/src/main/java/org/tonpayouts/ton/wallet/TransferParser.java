package org.tonpayouts.ton.wallet;

import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import org.tonpayouts.ton.address.TonAddress;
import org.tonpayouts.ton.cell.CellReader;
import org.tonpayouts.ton.cell.MessageCells;
import org.tonpayouts.ton.cell.TonCell;

/**
 * Reads a WalletV4R2 external message (a {@code sendBoc} payload) back into its fields: for
 * tests, audits and the chain scan, which must see what the wallet contract will check. Any
 * malformed input gives an {@link IllegalArgumentException} saying what is wrong.
 */
public final class TransferParser {
  private static final int SIGNATURE_BITS = 512;

  private TransferParser() {}

  /** Parses a base64 BOC of an external message to a WalletV4R2 wallet. */
  public static ParsedTransfer parse(String bocBase64) {
    if (bocBase64 == null || bocBase64.isBlank()) {
      throw new IllegalArgumentException("message BOC is empty");
    }
    TonCell root;
    try {
      root = TonCell.fromBase64(bocBase64);
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException("malformed wallet message BOC: " + e.getMessage(), e);
    }
    return parse(root);
  }

  /** Parses an external message cell. */
  public static ParsedTransfer parse(TonCell root) {
    MessageCells.ExternalIn message = MessageCells.readExternalIn(root);
    CellReader cs = message.body().parse();
    if (cs.remainingBits() < SIGNATURE_BITS + 32 + 32 + 32 + 8) {
      throw new IllegalArgumentException("body too short for a WalletV4R2 message: " + cs.remainingBits() + " bits");
    }
    byte[] signature = cs.loadBits(SIGNATURE_BITS);
    TonCell signed = cs.rest();

    CellReader s = signed.parse();
    long subwalletId = s.loadUint(32);
    long validUntil = s.loadUint(32);
    long seqno = s.loadUint(32);
    int op = (int) s.loadUint(8);
    List<ParsedTransfer.ParsedOrder> orders = new ArrayList<>();
    if (op == 0) {
      // The contract loops "while refs remain: mode(8), ^message".
      while (s.remainingRefs() > 0) {
        if (s.remainingBits() < 8) {
          throw new IllegalArgumentException("order " + (orders.size() + 1) + " has no send mode");
        }
        int mode = (int) s.loadUint(8);
        orders.add(order(mode, s.loadRef(), orders.size() + 1));
      }
    }

    String stateInitHash = message.init() == null ? null : message.init().cell().hashHex();
    byte[] normalized = MessageCells.normalizedHash(message.destination(), message.body());
    return new ParsedTransfer(message.destination(), stateInitHash, subwalletId, validUntil, seqno, op, orders,
        hex(signature), signed.hashHex(), root.hashHex(), hex(normalized));
  }

  private static ParsedTransfer.ParsedOrder order(int mode, TonCell cell, int index) {
    MessageCells.Internal m;
    try {
      m = MessageCells.readInternal(cell);
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException("order " + index + " is not an internal message: " + e.getMessage(), e);
    }
    return new ParsedTransfer.ParsedOrder(mode, m.destination(), m.value(), m.bounce(), TextComment.decode(m.body()));
  }

  private static String hex(byte[] bytes) {
    return HexFormat.of().formatHex(bytes);
  }
}
