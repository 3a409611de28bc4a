package org.tonpayouts.ton.cell;

import org.tonpayouts.ton.address.TonAddress;

/**
 * The TL-B layouts of messages (block.tlb {@code Message}, {@code CommonMsgInfo},
 * {@code StateInit}), written as the JS SDK's {@code storeMessage} writes them and read as the node
 * reads them: the one place that knows where a message keeps its destination, init and body.
 */
public final class MessageCells {
  private MessageCells() {}

  /** An inbound external message: its destination, the StateInit it carries (or null) and its body. */
  public record ExternalIn(TonAddress destination, StateInit init, TonCell body) {}

  /**
   * A StateInit as a message carries it.
   *
   * @param cell the StateInit cell (its hash is the address it deploys to)
   * @param code the code cell it installs, or {@code null}
   * @param data the data cell it installs, or {@code null}
   */
  public record StateInit(TonCell cell, TonCell code, TonCell data) {}

  /**
   * An internal message as a wallet asks to send it or as the chain records it.
   *
   * @param source null for {@code addr_none} (a wallet's order: the contract fills it in)
   * @param init the StateInit it carries, or null
   * @param body its body (the empty cell for an empty inline body)
   */
  public record Internal(boolean ihrDisabled, boolean bounce, boolean bounced, TonAddress source,
                         TonAddress destination, long value, boolean extraCurrencies, long ihrFee, long fwdFee,
                         long createdLt, long createdAt, StateInit init, TonCell body) {}

  // ---- writing --------------------------------------------------------------------------------

  /** {@code ext_in_msg_info$10 src:addr_none dest import_fee:0}: the head of every message we sign. */
  public static CellWriter externalInfo(TonAddress destination) {
    return TonCell.builder()
        .storeUint(0b10, 2)                  // ext_in_msg_info$10
        .storeAddress(null)                  // src: addr_none
        .storeAddress(destination)
        .storeCoins(0);                      // import_fee
  }

  /** The external message to {@code destination}, with {@link #storeInitAndBody}'s layout. */
  public static TonCell externalIn(TonAddress destination, TonCell init, TonCell body) {
    return storeInitAndBody(externalInfo(destination), init, body).endCell();
  }

  /**
   * {@code init:(Maybe (Either StateInit ^StateInit)) body:(Either X ^X)} after a message's info,
   * as the JS SDK's {@code storeMessage} (and ton4j's {@code Message.toCell}) lays them out: the
   * init inline when it and the body fit beside the two flag bits, then {@link #storeEither}.
   */
  public static CellWriter storeInitAndBody(CellWriter b, TonCell init, TonCell body) {
    if (init == null) {
      b.storeBit(false);
    } else {
      b.storeBit(true);                      // counted before the fit is judged
      int bodyBits = body == null ? 0 : body.bitLength();
      if (b.freeBits() - 2 < init.bitLength() + bodyBits) {
        b.storeBit(true).storeRef(init);
      } else {
        b.storeBit(false).storeCell(init);
      }
    }
    return storeEither(b, body);
  }

  /**
   * TEP-467: the hash of the message rebuilt with {@code src = addr_none}, {@code import_fee = 0},
   * no StateInit and the body in a reference, so that re-serializations of one message share it.
   */
  public static byte[] normalizedHash(TonAddress destination, TonCell body) {
    return externalInfo(destination)
        .storeBit(false)                     // init: nothing
        .storeBit(true).storeRef(body)       // body: in a reference
        .endCell()
        .hash();
  }

  /** {@code split_depth:nothing special:nothing code:^Cell data:^Cell library:empty} (the JS SDK's {@code storeStateInit}). */
  public static TonCell stateInit(TonCell code, TonCell data) {
    return TonCell.builder()
        .storeBit(false)                     // split_depth: nothing
        .storeBit(false)                     // special: nothing
        .storeBit(true).storeRef(code)
        .storeBit(true).storeRef(data)
        .storeBit(false)                     // library: empty
        .endCell();
  }

  /**
   * {@code int_msg_info$0 ihr_disabled bounce bounced src dest value:(grams, no extra) ihr_fee
   * fwd_fee created_lt created_at}: the info of an internal message, before its init and body.
   */
  public static CellWriter internalInfo(boolean bounce, boolean bounced, TonAddress source, TonAddress destination,
                                        long value, long ihrFee, long fwdFee, long createdLt, long createdAt) {
    return TonCell.builder()
        .storeBit(false)                     // int_msg_info$0
        .storeBit(true)                      // ihr_disabled
        .storeBit(bounce)
        .storeBit(bounced)
        .storeAddress(source)
        .storeAddress(destination)
        .storeCoins(value)
        .storeBit(false)                     // extra currencies: none
        .storeCoins(ihrFee)
        .storeCoins(fwdFee)
        .storeUint(createdLt, 64)
        .storeUint(createdAt, 32);
  }

  /** {@code body:(Either X ^X)}, inline when it fits; an absent body is the empty inline body. */
  public static CellWriter storeEither(CellWriter b, TonCell body) {
    if (body == null) {
      b.storeBit(false);
    } else if (b.freeBits() - 1 >= body.bitLength() && b.refCount() + body.refCount() <= TonCell.MAX_REFS) {
      b.storeBit(false).storeCell(body);
    } else {
      b.storeBit(true).storeRef(body);
    }
    return b;
  }

  // ---- reading --------------------------------------------------------------------------------

  /** Reads an inbound external message; {@link MalformedCellException} when {@code root} is not one. */
  public static ExternalIn readExternalIn(TonCell root) {
    CellReader r = root.parse();
    int tag = (int) r.loadUint(2);
    if (tag != 0b10) {
      throw new MalformedCellException("not an external-in message (expected ext_in_msg_info$10), got tag "
          + Integer.toBinaryString(tag) + (tag >>> 1 == 0 ? " (int_msg_info$0)" : " (ext_out_msg_info$11)"));
    }
    skipExternalAddress(r);
    TonAddress destination = r.loadAddress();
    if (destination == null) {
      throw new MalformedCellException("an external-in message needs a standard destination address, it has addr_none");
    }
    r.loadBigCoins();                        // import_fee
    StateInit init = readInit(r);
    TonCell body = readEither(r);
    return new ExternalIn(destination, init, body);
  }

  /** Reads an internal message (relaxed: the source may be {@code addr_none}). */
  public static Internal readInternal(TonCell cell) {
    CellReader r = cell.parse();
    if (r.loadBit()) {
      throw new MalformedCellException("not an internal message (expected int_msg_info$0)");
    }
    boolean ihrDisabled = r.loadBit();
    boolean bounce = r.loadBit();
    boolean bounced = r.loadBit();
    TonAddress source = r.loadAddress();
    TonAddress destination = r.loadAddress();
    if (destination == null) {
      throw new MalformedCellException("an internal message needs a standard destination address, it has addr_none");
    }
    long value = r.loadCoins();
    boolean extra = r.loadBit();
    if (extra) {
      r.loadRef();                           // extra currencies: a dictionary, kept out of the value
    }
    long ihrFee = r.loadCoins();
    long fwdFee = r.loadCoins();
    long createdLt = r.loadUint(64);
    long createdAt = r.loadUint(32);
    StateInit init = readInit(r);
    TonCell body = readEither(r);
    return new Internal(ihrDisabled, bounce, bounced, source, destination, value, extra, ihrFee, fwdFee,
        createdLt, createdAt, init, body);
  }

  /** {@code init:(Maybe (Either StateInit ^StateInit))}: the StateInit, or null. */
  private static StateInit readInit(CellReader r) {
    if (!r.loadBit()) {
      return null;
    }
    if (r.loadBit()) {
      return readStateInit(r.loadRef());
    }
    CellWriter init = TonCell.builder();
    copyMaybeBits(r, init, 5);               // split_depth:(Maybe (## 5))
    copyMaybeBits(r, init, 2);               // special:(Maybe TickTock)
    copyMaybeRef(r, init);                   // code:(Maybe ^Cell)
    copyMaybeRef(r, init);                   // data:(Maybe ^Cell)
    copyMaybeRef(r, init);                   // library:(HashmapE 256 SimpleLib)
    return readStateInit(init.endCell());
  }

  /**
   * Reads {@code split_depth:(Maybe (## 5)) special:(Maybe TickTock) code:(Maybe ^Cell)
   * data:(Maybe ^Cell) library:(Maybe ^Cell)}; {@link MalformedCellException} when the cell is
   * not exactly that (the node refuses a StateInit with bits or references left over).
   */
  public static StateInit readStateInit(TonCell cell) {
    CellReader r = cell.parse();
    if (r.loadBit()) {
      r.skipBits(5);                         // split_depth
    }
    if (r.loadBit()) {
      r.skipBits(2);                         // special: tick, tock
    }
    TonCell code = r.loadBit() ? r.loadRef() : null;
    TonCell data = r.loadBit() ? r.loadRef() : null;
    if (r.loadBit()) {
      r.loadRef();                           // library
    }
    if (r.remainingBits() != 0 || r.remainingRefs() != 0) {
      throw new MalformedCellException("StateInit has " + r.remainingBits() + " bits and " + r.remainingRefs()
          + " references left over");
    }
    return new StateInit(cell, code, data);
  }

  /** {@code body:(Either X ^X)}: the inline rest as a cell, or the referenced cell. */
  private static TonCell readEither(CellReader r) {
    if (r.loadBit()) {
      TonCell body = r.loadRef();
      if (r.remainingBits() != 0 || r.remainingRefs() != 0) {
        throw new MalformedCellException("bits or references after a body kept in a reference");
      }
      return body;
    }
    return r.rest();
  }

  /** {@code MsgAddressExt}: {@code addr_none$00} or {@code addr_extern$01 len:(## 9) external_address:(bits len)}. */
  private static void skipExternalAddress(CellReader r) {
    int tag = (int) r.loadUint(2);
    if (tag == 0b01) {
      r.skipBits((int) r.loadUint(9));
    } else if (tag != 0b00) {
      throw new MalformedCellException("the source of an external-in message must be an external address, got tag "
          + Integer.toBinaryString(tag));
    }
  }

  private static void copyMaybeBits(CellReader r, CellWriter w, int width) {
    boolean present = r.loadBit();
    w.storeBit(present);
    if (present) {
      w.storeUint(r.loadUint(width), width);
    }
  }

  private static void copyMaybeRef(CellReader r, CellWriter w) {
    boolean present = r.loadBit();
    w.storeBit(present);
    if (present) {
      w.storeRef(r.loadRef());
    }
  }
}
