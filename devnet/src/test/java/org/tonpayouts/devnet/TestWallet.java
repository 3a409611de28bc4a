package org.tonpayouts.devnet;

import org.tonpayouts.ton.wallet.TextComment;
import java.math.BigInteger;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import org.ton.ton4j.cell.Cell;
import org.ton.ton4j.cell.CellBuilder;
import org.ton.ton4j.cell.CellSlice;
import org.ton.ton4j.tlb.CurrencyCollection;
import org.ton.ton4j.tlb.ExternalMessageInInfo;
import org.ton.ton4j.tlb.InternalMessageInfoRelaxed;
import org.ton.ton4j.tlb.Message;
import org.ton.ton4j.tlb.MsgAddressExtNone;
import org.ton.ton4j.tlb.MsgAddressIntStd;
import org.ton.ton4j.tlb.StateInit;
import org.tonpayouts.devnet.chain.Cells;
import org.tonpayouts.ton.address.TonAddress;
import org.tonpayouts.ton.keys.WalletKey;
import org.tonpayouts.ton.wallet.SignedTransfer;
import org.tonpayouts.ton.wallet.Subwallets;
import org.tonpayouts.ton.wallet.TransferOrder;
import org.tonpayouts.ton.wallet.TransferSigner;

/**
 * A WalletV4R2 subwallet for tests: real messages come from the ton module's {@link TransferSigner}
 * (mode 3); {@link #raw} builds the messages the signer refuses to make (other modes, wrong
 * subwallet id, foreign keys, no StateInit) with the same layout.
 */
public final class TestWallet {
  final WalletKey key;
  final Subwallets subwallets;
  final TransferSigner signer;
  final long subwalletId;
  final TonAddress address;

  TestWallet(int keySeed, long subwalletId) {
    byte[] seed = new byte[32];
    seed[0] = (byte) keySeed;
    seed[31] = 7;
    this.key = WalletKey.fromSeed(seed);
    this.subwallets = new Subwallets(key, TonAddress.BASECHAIN);
    this.signer = new TransferSigner(subwallets);
    this.subwalletId = subwalletId;
    this.address = subwallets.address(subwalletId);
  }

  String friendly() {
    return address.toFriendly(true, false);
  }

  /** A message signed by the ton module's signer (mode 3, StateInit when seqno is 0). */
  SignedTransfer sign(long seqno, Instant validUntil, TransferOrder... orders) {
    return signer.sign(subwalletId, seqno, validUntil, List.of(orders));
  }

  /** The wallet's StateInit as ton4j reads it. */
  Cell stateInitCell() {
    return Cell.fromBoc(subwallets.stateInit(subwalletId).toBoc());
  }

  /** One send of {@link #raw}. */
  record Send(int mode, TonAddress destination, long amount, String comment, boolean bounce) {}

  /**
   * A V4R2 external message built by hand: {@code signWith} signs it, {@code subwallet} is written
   * in the body, the StateInit is attached when {@code withInit}.
   */
  String raw(WalletKey signWith, long subwallet, long validUntil, long seqno, boolean withInit, Send... sends) {
    List<Order> orders = new ArrayList<>();
    for (Send send : sends) {
      orders.add(new Order(send.mode(), internal(send)));
    }
    return raw(signWith, subwallet, validUntil, seqno, withInit, orders);
  }

  /** One send of {@link #raw(WalletKey, long, long, long, boolean, List)}: a message cell built by the caller. */
  record Order(int mode, Cell message) {}

  /** {@link #raw(WalletKey, long, long, long, boolean, Send...)} with message cells the caller built with ton4j. */
  String raw(WalletKey signWith, long subwallet, long validUntil, long seqno, boolean withInit, List<Order> orders) {
    CellBuilder unsigned = CellBuilder.beginCell()
        .storeUint(subwallet, 32)
        .storeUint(validUntil, 32)
        .storeUint(seqno, 32)
        .storeUint(0, 8);
    for (Order order : orders) {
      unsigned.storeUint(order.mode(), 8).storeRef(order.message());
    }
    Cell unsignedBody = unsigned.endCell();
    byte[] signature = signWith.sign(unsignedBody.getHash());
    Cell body = CellBuilder.beginCell().storeBytes(signature).storeCell(unsignedBody).endCell();
    StateInit init = withInit
        ? StateInit.deserialize(CellSlice.beginParse(stateInitCell())) : null;
    Cell message = Message.builder()
        .info(ExternalMessageInInfo.builder()
            .srcAddr(MsgAddressExtNone.builder().build())
            .dstAddr(std(address))
            .importFee(BigInteger.ZERO)
            .build())
        .init(init)
        .body(body)
        .build()
        .toCell();
    return Base64.getEncoder().encodeToString(message.toBoc());
  }

  private static Cell internal(Send send) {
    Cell info = orderInfo(send.destination(), send.amount(), send.bounce());
    CellBuilder b = CellBuilder.beginCell().storeCell(info).storeBit(false);
    if (send.comment() == null) {
      b.storeBit(false);
    } else {
      b.storeBit(true).storeRef(Cell.fromBoc(TextComment.encode(send.comment()).toBoc()));
    }
    return b.endCell();
  }

  /**
   * ton4j's {@code int_msg_info$0} of a wallet order (source addr_none, no fees, no times): the
   * independent writer the devnet tests compare devnet's own cells with.
   */
  public static Cell orderInfo(TonAddress destination, long amount, boolean bounce) {
    return InternalMessageInfoRelaxed.builder()
        .iHRDisabled(true)
        .bounce(bounce)
        .bounced(false)
        .srcAddr(MsgAddressExtNone.builder().build())
        .dstAddr(std(destination))
        .value(CurrencyCollection.builder().coins(BigInteger.valueOf(amount)).build())
        .iHRFee(BigInteger.ZERO)
        .fwdFee(BigInteger.ZERO)
        .createdLt(BigInteger.ZERO)
        .createdAt(0)
        .build()
        .toCell();
  }

  /** The address ton4j read, back as ours (the inverse of {@link #std}). */
  public static TonAddress address(MsgAddressIntStd std) {
    byte[] raw = std.getAddress().toByteArray();
    byte[] hash = new byte[32];
    // BigInteger may add a sign byte or drop leading zeros: right-align the low 32 bytes
    int copy = Math.min(raw.length, 32);
    System.arraycopy(raw, raw.length - copy, hash, 32 - copy, copy);
    return TonAddress.of(std.getWorkchainId(), hash);
  }

  public static MsgAddressIntStd std(TonAddress address) {
    return MsgAddressIntStd.builder()
        .workchainId((byte) address.workchain())
        .address(new BigInteger(1, address.hash()))
        .build();
  }

  static TonAddress someAddress(int n) {
    byte[] hash = new byte[32];
    hash[0] = (byte) 0xAB;
    hash[31] = (byte) n;
    return TonAddress.of(0, hash);
  }
}
