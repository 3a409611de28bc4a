package org.tonpayouts.poller;

import java.util.List;
import org.tonpayouts.ton.api.ChainTransaction;

/**
 * What one round learned about one wallet from the chain: the transactions it scanned and, when a
 * pending message had expired, the wallet's seqno read after that scan.
 *
 * @param transactions scanned transactions, oldest first: everything newer than the cursor, and
 *     back to the earliest window a pending message needed
 * @param complete true when the scan reached where it had to (the cursor and every needed
 *     window); false when it stopped at the page limit
 * @param walletSeqno the wallet's seqno read after the scan, null when not read, failed, or stale
 */
public record WalletObservation(List<ChainTransaction> transactions, boolean complete, Long walletSeqno) {

  public WalletObservation {
    transactions = List.copyOf(transactions);
  }

  WalletObservation withWalletSeqno(Long seqno) {
    return new WalletObservation(transactions, complete, seqno);
  }
}
