package org.tonpayouts.local.audit;

import java.util.ArrayList;
import java.util.Base64;
import java.util.Collections;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.ton.ton4j.cell.Cell;
import org.ton.ton4j.cell.CellSlice;
import org.ton.ton4j.tlb.Transaction;
import org.ton.ton4j.tlb.TransactionDescriptionOrdinary;
import org.tonpayouts.ton.address.TonAddress;
import org.tonpayouts.ton.api.ChainMessage;
import org.tonpayouts.ton.api.ChainTransaction;
import org.tonpayouts.ton.api.TonApi;
import org.tonpayouts.ton.api.TransactionId;
import org.tonpayouts.ton.cell.TonCell;
import org.tonpayouts.ton.jetton.JettonTransfer;
import org.tonpayouts.ton.wallet.ParsedTransfer;
import org.tonpayouts.ton.wallet.TransferParser;

/**
 * Reads the wallets' whole history from a TON HTTP API v2 ({@code getTransactions}, paged), the way
 * any auditor with only the API would, and decodes what matters from each transaction's BOC: the
 * aborted flag, the external message that caused it (seqno, hash, whose signature) and what it paid.
 */
final class ChainScan {
  private static final int PAGE = 100;
  private static final long CALL_TIMEOUT_SECONDS = 30;

  /** A wallet message that caused a transaction: its seqno and hash, and whether our key signed it. */
  record ExternalIn(String messageHash, long seqno, boolean signedByOurKey) {}

  /**
   * One outgoing payment of a wallet transaction. A jetton transfer's message goes to the wallet's
   * own jetton wallet with TON attached ({@code amountNano}); {@code jetton} is its TEP-74 transfer
   * body (whom it pays, how much, the query id), and its comment is the transfer's forward payload.
   *
   * @param jetton the jetton transfer the message asks for, or null for a TON payment
   */
  record Payment(TonAddress wallet, String txHash, long lt, TonAddress destination, long amountNano, String comment,
                 JettonTransfer jetton) {}

  /** One transaction of a wallet; {@code in} is null unless an external message caused it. */
  record Tx(TonAddress wallet, long lt, String hash, boolean aborted, ExternalIn in, List<Payment> payments) {}

  /** A wallet's transactions, oldest first, and its seqno as the API reports it now. */
  record WalletHistory(TonAddress wallet, long subwalletId, List<Tx> transactions, long seqno) {
    /** The external messages that applied (a transaction that aborted moved no seqno), oldest first. */
    List<Tx> applied() {
      return transactions.stream().filter(t -> t.in() != null && !t.aborted()).toList();
    }
  }

  private ChainScan() {}

  /** Every transaction of every wallet in {@code wallets} (addresses by subwallet id). */
  static Map<Long, WalletHistory> scan(TonApi api, Map<Long, TonAddress> wallets, byte[] ourPublicKey) {
    Map<Long, WalletHistory> out = new LinkedHashMap<>();
    for (Map.Entry<Long, TonAddress> w : wallets.entrySet()) {
      long id = w.getKey();
      TonAddress wallet = w.getValue();
      List<Tx> txs = new ArrayList<>();
      for (ChainTransaction t : history(api, wallet)) {
        txs.add(decode(wallet, t, ourPublicKey));
      }
      Collections.reverse(txs);
      long seqno = join(api.getSeqno(wallet));
      out.put(id, new WalletHistory(wallet, id, List.copyOf(txs), seqno));
    }
    return out;
  }

  /** Newest first, every page. */
  private static List<ChainTransaction> history(TonApi api, TonAddress wallet) {
    List<ChainTransaction> all = new ArrayList<>();
    TransactionId from = null;
    while (true) {
      List<ChainTransaction> page = join(api.getTransactions(wallet, PAGE, from, null));
      // a page starts with its cursor, inclusive: drop the transaction the previous page ended with
      List<ChainTransaction> fresh = from == null ? page : page.stream().skip(1).toList();
      all.addAll(fresh);
      if (page.size() < PAGE || fresh.isEmpty()) {
        return all;
      }
      from = page.get(page.size() - 1).id();
    }
  }

  private static Tx decode(TonAddress wallet, ChainTransaction t, byte[] ourPublicKey) {
    Cell root = Cell.fromBoc(Base64.getDecoder().decode(t.data()));
    Transaction tx = Transaction.deserialize(CellSlice.beginParse(root));
    boolean aborted = tx.getDescription() instanceof TransactionDescriptionOrdinary d && d.isAborted();
    ExternalIn in = null;
    if (t.inMsg() != null && t.inMsg().isExternalIn()) {
      Cell inCell = CellSlice.beginParse(root.getRefs().get(0)).loadRef();
      ParsedTransfer parsed = TransferParser.parse(TonCell.fromBoc(inCell.toBoc(true)));
      in = new ExternalIn(parsed.messageHash(), parsed.seqno(), parsed.signatureValidFor(ourPublicKey));
    }
    List<Payment> payments = new ArrayList<>();
    for (ChainMessage m : t.outMsgs()) {
      if (m.destination() != null) {
        JettonTransfer jetton = JettonTransfer.read(m.bodyBase64()).orElse(null);
        payments.add(new Payment(wallet, t.id().hash(), t.id().lt(), m.destination(), m.value(),
            jetton != null ? jetton.comment() : m.comment(), jetton));
      }
    }
    return new Tx(wallet, t.id().lt(), t.id().hash(), aborted, in, List.copyOf(payments));
  }

  static <T> T join(java.util.concurrent.CompletableFuture<T> future) {
    try {
      return future.get(CALL_TIMEOUT_SECONDS, TimeUnit.SECONDS);
    } catch (java.util.concurrent.ExecutionException e) {
      throw new IllegalStateException("the TON API failed while auditing: " + e.getCause(), e.getCause());
    } catch (java.util.concurrent.TimeoutException e) {
      throw new IllegalStateException("the TON API did not answer within " + CALL_TIMEOUT_SECONDS + " s", e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted while auditing", e);
    }
  }

  static String hex(byte[] bytes) {
    return HexFormat.of().formatHex(bytes);
  }
}
