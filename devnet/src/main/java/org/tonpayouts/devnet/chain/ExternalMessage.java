package org.tonpayouts.devnet.chain;

import java.math.BigInteger;
import java.util.Objects;
import org.ton.ton4j.cell.Cell;
import org.ton.ton4j.cell.CellBuilder;
import org.ton.ton4j.cell.CellSlice;
import org.ton.ton4j.tlb.ExternalMessageInInfo;
import org.ton.ton4j.tlb.Message;
import org.ton.ton4j.tlb.MsgAddressInt;
import org.ton.ton4j.tlb.MsgAddressIntStd;
import org.ton.ton4j.tlb.StateInit;
import org.tonpayouts.ton.address.InvalidAddressException;
import org.tonpayouts.ton.address.TonAddress;

/**
 * An external-in message as sendBoc received it, decoded with ton4j's TL-B classes: destination,
 * optional StateInit, body, and the two hashes clients match it by.
 *
 * @param hash lowercase hex hash of the message cell as sent (toncenter's {@code hash}, and the
 *     {@code in_msg.hash} of the transaction it causes)
 * @param normalizedHash lowercase hex TEP-467 normalized hash (toncenter's {@code hash_norm})
 * @param init the StateInit it carries, or {@code null}
 * @param initCell the StateInit as a cell (hash computed), or {@code null}
 * @param body the body cell, hash computed
 */
public record ExternalMessage(Cell root, String hash, String normalizedHash, TonAddress destination,
                              StateInit init, Cell initCell, Cell body) {
  public ExternalMessage {
    Objects.requireNonNull(root, "root");
    Objects.requireNonNull(hash, "hash");
    Objects.requireNonNull(destination, "destination");
    Objects.requireNonNull(body, "body");
  }

  /** Decodes a BOC holding one external-in message. */
  public static ExternalMessage parse(byte[] boc) throws MalformedMessageException {
    if (boc == null || boc.length == 0) {
      throw new MalformedMessageException("empty BOC");
    }
    Cell root;
    try {
      root = Cell.fromBoc(boc);
    } catch (RuntimeException | AssertionError e) {
      throw new MalformedMessageException("cannot deserialize BOC: " + describe(e), e);
    } catch (Error e) {
      // ton4j reports malformed input with java.lang.Error; real VM errors stay fatal.
      if (e instanceof VirtualMachineError) {
        throw e;
      }
      throw new MalformedMessageException("cannot deserialize BOC: " + describe(e), e);
    }
    Message message;
    try {
      message = Message.deserialize(CellSlice.beginParse(root));
    } catch (RuntimeException | AssertionError e) {
      throw new MalformedMessageException("BOC is not a message: " + describe(e), e);
    } catch (Error e) {
      if (e instanceof VirtualMachineError) {
        throw e;
      }
      throw new MalformedMessageException("BOC is not a message: " + describe(e), e);
    }
    if (!(message.getInfo() instanceof ExternalMessageInInfo info)) {
      throw new MalformedMessageException("not an external-in message (expected ext_in_msg_info$10), got "
          + (message.getInfo() == null ? "nothing" : message.getInfo().getClass().getSimpleName()));
    }
    TonAddress destination = destination(info.getDstAddr());
    StateInit init = message.getInit();
    Cell initCell = init == null ? null : init.toCell();
    Cell body = message.getBody() == null ? Cells.EMPTY : Cells.rebuilt(message.getBody());
    return new ExternalMessage(root, Cells.hex(root.getHash()), Cells.hex(normalizedHash(destination, body)),
        destination, init, initCell, body);
  }

  /**
   * TEP-467: the message rebuilt with {@code src = addr_none}, {@code import_fee = 0}, no
   * StateInit and the body in a reference, so that re-serializations of one message share a hash.
   */
  static byte[] normalizedHash(TonAddress destination, Cell body) {
    return CellBuilder.beginCell()
        .storeUint(0b10, 2)                  // ext_in_msg_info$10
        .storeUint(0b00, 2)                  // src: addr_none$00
        .storeUint(0b10, 2)                  // dest: addr_std$10
        .storeBit(false)                     // anycast: nothing
        .storeInt(destination.workchain(), 8)
        .storeBytes(destination.hash())
        .storeCoins(BigInteger.ZERO)         // import_fee
        .storeBit(false)                     // init: nothing
        .storeBit(true)                      // body: in a reference
        .storeRef(body)
        .endCell()
        .getHash();
  }

  private static TonAddress destination(MsgAddressInt address) throws MalformedMessageException {
    if (!(address instanceof MsgAddressIntStd std)) {
      throw new MalformedMessageException("destination must be a standard address (addr_std), got "
          + (address == null ? "none" : address.getClass().getSimpleName()));
    }
    if (std.getAnycast() != null) {
      throw new MalformedMessageException("anycast destinations are not supported");
    }
    try {
      return TonAddress.of(std.getWorkchainId(), to32Bytes(std.getAddress()));
    } catch (InvalidAddressException e) {
      throw new MalformedMessageException("bad destination: " + e.getMessage(), e);
    }
  }

  /** The unsigned 256-bit account id as 32 bytes. */
  static byte[] to32Bytes(BigInteger value) {
    byte[] raw = value.toByteArray();
    byte[] out = new byte[32];
    int copy = Math.min(raw.length, 32);
    System.arraycopy(raw, raw.length - copy, out, 32 - copy, copy);
    return out;
  }

  private static String describe(Throwable e) {
    return e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage();
  }
}
