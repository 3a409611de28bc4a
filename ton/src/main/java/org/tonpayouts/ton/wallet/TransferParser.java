package org.tonpayouts.ton.wallet;

import java.math.BigInteger;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import org.ton.ton4j.cell.Cell;
import org.ton.ton4j.cell.CellBuilder;
import org.ton.ton4j.cell.CellSlice;
import org.ton.ton4j.tlb.ExternalMessageInInfo;
import org.ton.ton4j.tlb.InternalMessageInfoRelaxed;
import org.ton.ton4j.tlb.Message;
import org.ton.ton4j.tlb.MessageRelaxed;
import org.ton.ton4j.tlb.MsgAddressInt;
import org.ton.ton4j.tlb.MsgAddressIntStd;
import org.tonpayouts.ton.address.TonAddress;

/**
 * Reads a WalletV4R2 external message (a {@code sendBoc} payload) back into its fields: for the
 * devnet, which must validate messages as the wallet contract does, and for tests and audits.
 * Any malformed input gives an {@link IllegalArgumentException} saying what is wrong.
 */
public final class TransferParser {
  private static final int SIGNATURE_BITS = 512;

  private TransferParser() {}

  /** Parses a base64 BOC of an external message to a WalletV4R2 wallet. */
  public static ParsedTransfer parse(String bocBase64) {
    if (bocBase64 == null || bocBase64.isBlank()) {
      throw new IllegalArgumentException("message BOC is empty");
    }
    try {
      return parse(Cell.fromBocBase64(bocBase64.strip()));
    } catch (IllegalArgumentException e) {
      throw e;
    } catch (StackOverflowError e) {
      // ton4j recurses without a depth limit: a reference cycle in a crafted BOC ends here.
      throw new IllegalArgumentException("malformed wallet message BOC: cyclic or too deep cell references");
    } catch (RuntimeException | Error e) {
      // ton4j reports malformed cells with assorted RuntimeExceptions and java.lang.Error.
      if (e instanceof VirtualMachineError vme) {
        throw vme;
      }
      throw new IllegalArgumentException("malformed wallet message BOC: " + e, e);
    }
  }

  /** Parses an external message cell. */
  public static ParsedTransfer parse(Cell root) {
    Message message = Message.deserialize(CellSlice.beginParse(root));
    if (!(message.getInfo() instanceof ExternalMessageInInfo info)) {
      throw new IllegalArgumentException("not an inbound external message: " + message.getInfo().getClass().getSimpleName());
    }
    TonAddress wallet = address(info.getDstAddr(), "destination");
    // Cells cut out of a parsed slice carry no hashes until rebuilt (BUILD-NOTES).
    Cell body = rebuild(message.getBody());
    CellSlice cs = CellSlice.beginParse(body);
    if (cs.getRestBits() < SIGNATURE_BITS + 32 + 32 + 32 + 8) {
      throw new IllegalArgumentException("body too short for a WalletV4R2 message: " + cs.getRestBits() + " bits");
    }
    byte[] signature = cs.loadBytes(SIGNATURE_BITS);
    Cell signed = rebuild(cs.sliceToCell());

    CellSlice s = CellSlice.beginParse(signed);
    long subwalletId = s.loadUint(32).longValue();
    long validUntil = s.loadUint(32).longValue();
    long seqno = s.loadUint(32).longValue();
    int op = s.loadUint(8).intValue();
    List<ParsedTransfer.ParsedOrder> orders = new ArrayList<>();
    if (op == 0) {
      // The contract loops "while refs remain: mode(8), ^message".
      while (s.getRefsCount() > 0) {
        if (s.getRestBits() < 8) {
          throw new IllegalArgumentException("order " + (orders.size() + 1) + " has no send mode");
        }
        int mode = s.loadUint(8).intValue();
        orders.add(order(mode, s.loadRef(), orders.size() + 1));
      }
    }

    String stateInitHash = message.getInit() == null ? null : hex(rebuild(message.getInit().toCell()).hash());
    byte[] normalized = Message.builder().info(info).body(body).build().getNormalizedHash();
    return new ParsedTransfer(wallet, stateInitHash, subwalletId, validUntil, seqno, op, orders,
        hex(signature), hex(signed.hash()), hex(root.hash()), hex(normalized));
  }

  private static ParsedTransfer.ParsedOrder order(int mode, Cell cell, int index) {
    MessageRelaxed m = MessageRelaxed.deserialize(CellSlice.beginParse(cell));
    if (!(m.getInfo() instanceof InternalMessageInfoRelaxed info)) {
      throw new IllegalArgumentException("order " + index + " is not an internal message");
    }
    BigInteger coins = info.getValue().getCoins();
    if (coins.bitLength() > 63) {
      throw new IllegalArgumentException("order " + index + " amount " + coins + " exceeds a long");
    }
    return new ParsedTransfer.ParsedOrder(mode, address(info.getDstAddr(), "order " + index + " destination"),
        coins.longValue(), info.getBounce(), TextComment.decode(m.getBody()));
  }

  private static TonAddress address(MsgAddressInt address, String what) {
    if (!(address instanceof MsgAddressIntStd std)) {
      throw new IllegalArgumentException(what + " is not a standard address: " + address);
    }
    byte[] raw = std.getAddress().toByteArray();
    byte[] hash = new byte[32];
    // BigInteger may add a sign byte or drop leading zeros: right-align the low 32 bytes.
    int n = Math.min(raw.length, 32);
    System.arraycopy(raw, raw.length - n, hash, 32 - n, n);
    return TonAddress.of(std.getWorkchainId(), hash);
  }

  private static Cell rebuild(Cell cell) {
    return CellBuilder.beginCell().storeCell(cell).endCell();
  }

  private static String hex(byte[] bytes) {
    return HexFormat.of().formatHex(bytes);
  }
}
