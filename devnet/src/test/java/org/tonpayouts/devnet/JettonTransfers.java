package org.tonpayouts.devnet;

import java.math.BigInteger;
import java.util.Base64;
import java.util.List;
import org.ton.ton4j.address.Address;
import org.ton.ton4j.cell.Cell;
import org.ton.ton4j.cell.CellBuilder;
import org.ton.ton4j.cell.CellSlice;
import org.ton.ton4j.tlb.ComputePhaseVM;
import org.ton.ton4j.tlb.Transaction;
import org.ton.ton4j.tlb.TransactionDescriptionOrdinary;
import org.tonpayouts.devnet.chain.DevnetMessage;
import org.tonpayouts.devnet.chain.DevnetTransaction;
import org.tonpayouts.ton.address.TonAddress;

/**
 * Jetton payouts as a subwallet signs them, built with ton4j's cells (not devnet's): the
 * WalletV4R2 external message carrying one bounceable internal message to the subwallet's own
 * jetton wallet with a TEP-74 {@code transfer} body. Also reads devnet's transactions back with
 * ton4j's TL-B parser.
 */
final class JettonTransfers {
  static final int MODE = 3;
  static final long VALID_SECONDS = 60;

  private JettonTransfers() {}

  /**
   * The external message of {@code wallet} (seqno {@code seqno}, StateInit when 0) sending
   * {@code attach} nanotons to {@code jettonWallet} with {@code transfer#0f8a7ea5 query_id amount
   * destination response_destination=wallet no custom_payload forward_ton_amount=0, empty inline payload}.
   */
  static String transfer(TestWallet wallet, long seqno, long validUntil, TonAddress jettonWallet, long attach,
                         long queryId, BigInteger amount, TonAddress destination) {
    Cell body = CellBuilder.beginCell()
        .storeUint(0x0f8a7ea5L, 32)
        .storeUint(queryId, 64)
        .storeCoins(amount)
        .storeAddress(Address.of(destination.toRaw()))
        .storeAddress(Address.of(wallet.address.toRaw()))
        .storeBit(false)
        .storeCoins(BigInteger.ZERO)
        .storeBit(false)
        .endCell();
    Cell message = CellBuilder.beginCell()
        .storeCell(TestWallet.orderInfo(jettonWallet, attach, true))
        .storeBit(false)                 // no StateInit
        .storeBit(true).storeRef(body)   // body in a reference
        .endCell();
    return wallet.raw(wallet.key, wallet.subwalletId, validUntil, seqno, seqno == 0,
        List.of(new TestWallet.Order(MODE, message)));
  }

  /** The transaction as ton4j's TL-B parser reads devnet's BOC. */
  static TransactionDescriptionOrdinary description(DevnetTransaction tx) {
    Transaction parsed = Transaction.deserialize(CellSlice.beginParse(Cell.fromBoc(Base64.getDecoder().decode(tx.data()))));
    return (TransactionDescriptionOrdinary) parsed.getDescription();
  }

  /** The compute phase's exit code, or {@code null} when it was skipped. */
  static Long exitCode(DevnetTransaction tx) {
    return description(tx).getComputePhase() instanceof ComputePhaseVM vm ? vm.getDetails().getExitCode() : null;
  }

  /** The op of an internal message's body (its first 32 bits), or -1 for a shorter body. */
  static long op(DevnetMessage message) {
    return message.body().bitLength() < 32 ? -1 : message.body().parse().loadUint(32);
  }
}
