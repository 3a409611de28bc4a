package org.tonpayouts.poller;

import java.util.List;
import org.tonpayouts.ton.api.ChainTransaction;
import org.tonpayouts.ton.api.WalletSnapshot;

/**
 * What one round learned about one wallet from the chain: the wallet's state when a pending
 * transfer needed it (read FIRST), then the transactions the scan found.
 *
 * <p>Reading the state before scanning makes the two consistent in the direction that matters:
 * when the scan reaches the state's last transaction, every transaction the state reflects was
 * scanned, so "the seqno moved past ours and none of our hashes is on chain" is a conclusion, not
 * a race. A scan that does not reach it (a lagging node behind the scan) proves nothing yet.
 *
 * @param transactions scanned transactions, oldest first: everything newer than the cursor, and
 *     back to the earliest window a pending transfer needed
 * @param complete true when the scan reached where it had to (the cursor and every needed window)
 * @param snapshot the wallet's state read before the scan; null when not needed, failed, or unread
 * @param reachedBackToLt where a scan cut short by its page budget stopped: it saw every transaction
 *     from this lt up (and, from its earlier rounds, those it keeps), none below; null when nothing
 *     it needed is missing below (a scan that reached the cursor, or the block feed's coverage)
 */
public record WalletObservation(List<ChainTransaction> transactions, boolean complete, WalletSnapshot snapshot,
    Long reachedBackToLt) {

  public WalletObservation {
    transactions = List.copyOf(transactions);
  }

  /** An observation missing nothing below what it needed. */
  public WalletObservation(List<ChainTransaction> transactions, boolean complete, WalletSnapshot snapshot) {
    this(transactions, complete, snapshot, null);
  }

  /** This observation with the wallet's state read before it. */
  WalletObservation withSnapshot(WalletSnapshot state) {
    return new WalletObservation(transactions, complete, state, reachedBackToLt);
  }

  /** The newest scanned transaction's lt, or {@code floor} when the scan found none newer. */
  long newestLt(long floor) {
    long lt = floor;
    for (ChainTransaction tx : transactions) {
      lt = Math.max(lt, tx.id().lt());
    }
    return lt;
  }
}
