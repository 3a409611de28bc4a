package org.tonpayouts.devnet.chain;

import java.math.BigInteger;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import org.ton.ton4j.cell.Cell;
import org.ton.ton4j.cell.CellBuilder;
import org.ton.ton4j.cell.CellSlice;
import org.ton.ton4j.tlb.ExternalMessageInInfo;
import org.ton.ton4j.tlb.InternalMessageInfoRelaxed;
import org.ton.ton4j.tlb.Message;
import org.ton.ton4j.tlb.MessageRelaxed;
import org.ton.ton4j.tlb.MsgAddressInt;
import org.ton.ton4j.tlb.MsgAddressIntStd;
import org.ton.ton4j.tlb.StateInit;
import org.tonpayouts.ton.cell.MessageCells;
import org.tonpayouts.ton.cell.TonCell;

/**
 * A second reading of an external message the wallet accepted, by ton4j's cell and TL-B code: the
 * ton module's cells, which devnet reads with, also build the signer's messages, so a bug there
 * (a hash, an address, a coins field read the way it was wrongly written) would pass both. A
 * message enters the mempool only when both readings agree on everything the wallet acts on: the
 * message and body hashes, the signed hash, subwallet id, valid_until, seqno, op, and each send's
 * mode, destination, value, bounce flag, body and StateInit.
 *
 * <p>ton4j's cells cost a third of devnet's CPU when every cell went through them, so they read
 * only this: a handful of cells, once per message (about 0.1 ms): the BOCs already confirmed are
 * remembered, since clients re-send a pending message every block.
 */
final class IndependentReading {
  private static final HexFormat HEX = HexFormat.of();
  private static final int SIGNATURE_BITS = 512;
  private static final byte[] UNSET = new byte[32];

  /**
   * One {@code mode + ^MessageRelaxed} of the wallet's simple send, as ton4j reads it.
   *
   * @param internal the internal message it sends; null when ton4j reads none there (an external
   *     one, or cells that are no message): the wallet still accepts the message and its action
   *     phase fails on this send, as on chain, so both readings need only agree that it is none
   */
  record Send(int mode, String messageHash, Internal internal) {}

  /** An internal message a send carries: destination raw, hashes lowercase hex, initHash null for none. */
  record Internal(boolean bounce, String destination, BigInteger value, String bodyHash, String initHash) {}

  /** What ton4j reads in the message: hashes lowercase hex, addresses raw ({@code wc:hex}). */
  record Reading(String hash, String normalizedHash, String destination, String initHash, String signedHash,
                 long subwalletId, long validUntil, long seqno, int op, List<Send> sends) {}

  /** BOCs both readings agreed on, least recently confirmed first. */
  private final Map<ByteBuffer, Boolean> confirmed;

  IndependentReading(int remembered) {
    this.confirmed = Collections.synchronizedMap(new LinkedHashMap<>(16, 0.75f, true) {
      @Override
      protected boolean removeEldestEntry(Map.Entry<ByteBuffer, Boolean> eldest) {
        return size() > remembered;
      }
    });
  }

  /** How many distinct BOCs both readings agreed on (up to the number remembered). */
  int remembered() {
    return confirmed.size();
  }

  /** {@link #check}, once per distinct BOC. */
  void confirm(byte[] boc, WalletV4R2.Accepted accepted) throws MalformedMessageException {
    ByteBuffer key = ByteBuffer.wrap(boc.clone());
    if (confirmed.get(key) == null) {
      check(boc, accepted);
      confirmed.put(key, Boolean.TRUE);
    }
  }

  /**
   * Refuses {@code accepted} unless ton4j reads {@code boc} the same way; the exception names
   * the first field the two readings disagree on, with both values.
   */
  static void check(byte[] boc, WalletV4R2.Accepted accepted) throws MalformedMessageException {
    Reading independent;
    try {
      independent = read(boc);
    } catch (RuntimeException | Error e) { // ton4j's TL-B code throws Error on a wrong tag
      if (e instanceof VirtualMachineError fatal) {
        throw fatal;
      }
      throw disagreement("the message as a whole", "a WalletV4R2 message", "unreadable: " + e);
    }
    agree(independent, accepted);
  }

  /** Reads {@code boc} as an external-in message to a WalletV4R2 wallet with ton4j alone. */
  static Reading read(byte[] boc) {
    Cell root = Cell.fromBoc(boc);
    Message message = Message.deserialize(CellSlice.beginParse(root));
    if (!(message.getInfo() instanceof ExternalMessageInInfo info)) {
      throw new IllegalArgumentException("not an external-in message: " + message.getInfo());
    }
    CellSlice body = CellSlice.beginParse(message.getBody());
    body.loadBits(SIGNATURE_BITS);
    String signedHash = hash(body.sliceToCell());
    long subwalletId = body.loadUint(32).longValueExact();
    long validUntil = body.loadUint(32).longValueExact();
    long seqno = body.loadUint(32).longValueExact();
    int op = body.loadUint(8).intValueExact();
    List<Send> sends = new ArrayList<>();
    while (body.getRefsCount() > 0) {
      int mode = body.loadUint(8).intValueExact();
      sends.add(send(mode, body.loadRef()));
    }
    return new Reading(hash(root), HEX.formatHex(message.getNormalizedHash()), raw(info.getDstAddr()),
        message.getInit() == null ? null : hash(message.getInit().toCell()), signedHash, subwalletId, validUntil,
        seqno, op, List.copyOf(sends));
  }

  private static Send send(int mode, Cell cell) {
    String hash = hash(cell);
    try {
      MessageRelaxed message = MessageRelaxed.deserialize(CellSlice.beginParse(cell));
      if (message.getInfo() instanceof InternalMessageInfoRelaxed info) {
        StateInit init = message.getInit();
        return new Send(mode, hash, new Internal(info.getBounce(), raw(info.getDstAddr()), info.getValue().getCoins(),
            hash(message.getBody()), init == null ? null : hash(init.toCell())));
      }
    } catch (RuntimeException | Error e) { // ton4j's TL-B code throws Error on a wrong tag
      if (e instanceof VirtualMachineError fatal) {
        throw fatal;
      }
    }
    return new Send(mode, hash, null);
  }

  static void agree(Reading independent, WalletV4R2.Accepted accepted) throws MalformedMessageException {
    ExternalMessage message = accepted.message();
    WalletV4R2.Body body = accepted.body();
    same("message hash", message.hash(), independent.hash());
    same("normalized hash", message.normalizedHash(), independent.normalizedHash());
    same("destination", message.destination().toRaw(), independent.destination());
    same("StateInit", message.init() == null ? null : message.init().cell().hashHex(), independent.initHash());
    same("signed hash", HEX.formatHex(body.signedHash()), independent.signedHash());
    same("subwallet_id", body.subwalletId(), independent.subwalletId());
    same("valid_until", body.validUntil(), independent.validUntil());
    same("seqno", body.seqno(), independent.seqno());
    same("op", WalletV4R2.OP_SIMPLE_SEND, independent.op());
    List<WalletV4R2.Action> actions = accepted.actions();
    same("number of sends", actions.size(), independent.sends().size());
    for (int i = 0; i < actions.size(); i++) {
      agree("send #" + i, actions.get(i), independent.sends().get(i));
    }
  }

  private static void agree(String as, WalletV4R2.Action action, Send independent) throws MalformedMessageException {
    same(as + " mode", action.mode(), independent.mode());
    same(as + " message hash", action.message().hashHex(), independent.messageHash());
    MessageCells.Internal ours = internal(action.message());
    Internal theirs = independent.internal();
    if (ours == null || theirs == null) {
      same(as + " being an internal message", ours != null, theirs != null);
      return;
    }
    same(as + " destination", ours.destination().toRaw(), theirs.destination());
    same(as + " value", BigInteger.valueOf(ours.value()), theirs.value());
    same(as + " bounce", ours.bounce(), theirs.bounce());
    same(as + " body", ours.body().hashHex(), theirs.bodyHash());
    same(as + " StateInit", ours.init() == null ? null : ours.init().cell().hashHex(), theirs.initHash());
  }

  /** The internal message devnet's action phase reads in a send, or null when it reads none (it fails that send). */
  private static MessageCells.Internal internal(TonCell cell) {
    if (cell.bitLength() > 0 && cell.bit(0)) {
      return null; // ext_out_msg_info$11
    }
    try {
      return MessageCells.readInternal(cell);
    } catch (RuntimeException e) {
      return null;
    }
  }

  private static void same(String field, Object ours, Object independent) throws MalformedMessageException {
    if (!Objects.equals(ours, independent)) {
      throw disagreement(field, ours, independent);
    }
  }

  private static MalformedMessageException disagreement(String field, Object ours, Object independent) {
    return new MalformedMessageException("devnet's two readings of the message disagree on " + field
        + ": the ton module reads " + ours + ", ton4j reads " + independent
        + " (a codec bug: the real chain may read this message differently)");
  }

  /**
   * The cell's hash as ton4j computes it. A cell ton4j read from the BOC has it already; one it cut
   * from a slice (the signed part, an inline body) has none (all zeros) until rebuilt with its
   * builder, which hashes the whole tree again: only those are rebuilt.
   */
  private static String hash(Cell cell) {
    byte[] hash = cell.getHash();
    if (hash == null || Arrays.equals(hash, UNSET)) {
      hash = CellBuilder.beginCell().storeCell(cell).endCell().getHash();
    }
    return HEX.formatHex(hash);
  }

  /**
   * The raw form, formatted straight from ton4j's number. Going through a byte array and
   * {@code TonAddress.of} instead met a JIT bug of this JDK (17.0.15, C2): about once a run, once
   * warm, the copy's first byte read as zero.
   */
  private static String raw(MsgAddressInt address) {
    if (!(address instanceof MsgAddressIntStd std) || std.getAnycast() != null) {
      throw new IllegalArgumentException("not a plain addr_std: " + address);
    }
    return String.format("%d:%064x", std.getWorkchainId(), std.getAddress());
  }

}
