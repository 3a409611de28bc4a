package org.tonpayouts.streams.admin;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Predicate;
import org.tonpayouts.ton.address.TonAddress;
import org.tonpayouts.ton.api.ChainTransaction;
import org.tonpayouts.ton.api.TonApi;
import org.tonpayouts.ton.api.TransactionId;
import org.tonpayouts.ton.api.WalletSnapshot;

/**
 * The admin API's reads of a wallet from the TON API, each waited for with the call timeout: its
 * state with the node's synced time, one transaction by lt, and its transactions paged back from
 * the newest. A read that fails or times out throws {@link ChainUnavailableException}: nothing is
 * decided on a chain the service could not read.
 */
final class ChainReads {
  /** Transactions per page when reading a wallet back. */
  static final int PAGE = 50;
  /** Pages read at most when reading a wallet back (a busy wallet: give the lt instead). */
  static final int MAX_PAGES = 20;

  private final TonApi api;
  private final Duration callTimeout;

  ChainReads(TonApi api, Duration callTimeout) {
    this.api = api;
    this.callTimeout = callTimeout;
  }

  /**
   * The wallet's transactions read back from the newest, newest first.
   *
   * @param complete true when they reach back to the floor asked for, or to the wallet's first
   *     transaction; false when {@link #MAX_PAGES} pages did not reach it
   */
  record Back(List<ChainTransaction> newestFirst, boolean complete) {
    int read() {
      return newestFirst.size();
    }
  }

  /** The wallet's state and the node's synced time, from one answer. */
  WalletSnapshot snapshot(TonAddress wallet) throws InterruptedException {
    return await(api.getWalletSnapshot(wallet), "the state of " + wallet.toRaw());
  }

  /** The wallet's transaction {@code txHash} at {@code lt}; null when the wallet has none there. */
  ChainTransaction byLt(TonAddress wallet, String txHash, long lt) throws InterruptedException {
    List<ChainTransaction> page = await(api.getTransactions(wallet, 1, new TransactionId(lt, txHash), null),
        "the transactions of " + wallet.toRaw());
    return page.stream().filter(t -> t.id().hash().equals(txHash) && t.id().lt() == lt).findFirst().orElse(null);
  }

  /**
   * The wallet's transactions from the newest back to the first older than {@code floorUtime}
   * (included), or until {@code stop} matches one (included), at most {@link #MAX_PAGES} pages.
   */
  Back back(TonAddress wallet, long floorUtime, Predicate<ChainTransaction> stop) throws InterruptedException {
    List<ChainTransaction> read = new ArrayList<>();
    TransactionId from = null;
    for (int i = 0; i < MAX_PAGES; i++) {
      List<ChainTransaction> page = await(api.getTransactions(wallet, PAGE, from, null),
          "the transactions of " + wallet.toRaw());
      for (ChainTransaction t : page) {
        // a page starts with `from` itself (the previous page's oldest): keep each transaction once
        if (from == null || t.id().lt() < from.lt()) {
          read.add(t);
          if (stop.test(t) || t.utime() < floorUtime) {
            return new Back(read, true);
          }
        }
      }
      if (page.size() < PAGE || read.isEmpty()) {
        return new Back(read, true);
      }
      from = read.get(read.size() - 1).id();
    }
    return new Back(read, false);
  }

  private <T> T await(CompletableFuture<T> call, String what) throws InterruptedException {
    try {
      return call.get(callTimeout.toMillis(), TimeUnit.MILLISECONDS);
    } catch (ExecutionException | TimeoutException e) {
      Throwable cause = e instanceof ExecutionException && e.getCause() != null ? e.getCause() : e;
      throw new ChainUnavailableException("cannot read " + what + " from the TON API: " + cause.getMessage(), cause);
    }
  }

  /** The TON API could not be read: nothing was decided (the caller answers 503). */
  static final class ChainUnavailableException extends RuntimeException {
    ChainUnavailableException(String message, Throwable cause) {
      super(message, cause);
    }
  }
}
