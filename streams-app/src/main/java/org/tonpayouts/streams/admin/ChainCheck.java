package org.tonpayouts.streams.admin;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.tonpayouts.streams.ledger.operator.ChainPayment;
import org.tonpayouts.streams.ledger.sql.TransferRow;
import org.tonpayouts.ton.address.TonAddress;
import org.tonpayouts.ton.api.ChainMessage;
import org.tonpayouts.ton.api.ChainTransaction;
import org.tonpayouts.ton.api.TonApi;
import org.tonpayouts.ton.api.TransactionId;

/**
 * Verifies on chain the transaction an operator names to resolve a transfer as settled: it must be
 * a transaction of the transfer's wallet, and one of its out-messages must pay the transfer's
 * destination exactly its amount. Found by its lt when the operator gives it (one call), else by
 * reading the wallet's transactions back, newest first, to the time the transfer was recorded.
 */
final class ChainCheck {
  /** Transactions per page when searching by hash. */
  static final int PAGE = 50;
  /** Pages read at most when searching by hash (a busy wallet: give the lt instead). */
  static final int MAX_PAGES = 20;
  /** How far before the transfer was recorded a paying transaction may lie (clock differences). */
  private static final Duration BEFORE_RECORDED = Duration.ofMinutes(10);

  /** The outcome: the verified payment, or why it is refused. */
  sealed interface Outcome {}

  record Verified(ChainPayment payment) implements Outcome {}

  record NotVerified(String why) implements Outcome {}

  private final TonApi api;
  private final Duration callTimeout;

  ChainCheck(TonApi api, Duration callTimeout) {
    this.api = api;
    this.callTimeout = callTimeout;
  }

  Outcome verify(TransferRow transfer, String txHash, Long lt) throws InterruptedException {
    TonAddress wallet = TonAddress.parse(transfer.walletAddress());
    ChainTransaction tx;
    try {
      tx = lt != null ? byLt(wallet, txHash, lt) : byHash(wallet, txHash, transfer.createdAt().minus(BEFORE_RECORDED));
    } catch (ExecutionException | TimeoutException e) {
      Throwable cause = e instanceof ExecutionException && e.getCause() != null ? e.getCause() : e;
      throw new ChainUnavailableException("cannot read the transactions of " + wallet.toRaw() + " from the TON API: "
          + cause.getMessage(), cause);
    }
    if (tx == null) {
      return new NotVerified("wallet " + wallet.toRaw() + " has no transaction " + txHash
          + (lt != null ? " at lt " + lt : " since the transfer was recorded (searched " + MAX_PAGES * PAGE
              + " transactions at most; give its lt to look it up directly)"));
    }
    TonAddress destination = TonAddress.parse(transfer.destination());
    int paying = (int) tx.outMsgs().stream()
        .filter(m -> destination.equals(m.destination()) && m.value() == transfer.amountNano()).count();
    if (paying == 0) {
      return new NotVerified("transaction " + txHash + " of wallet " + wallet.toRaw() + " does not pay "
          + transfer.amountNano() + " nanotons to " + destination.toRaw() + "; its out-messages: "
          + describe(tx.outMsgs()));
    }
    ChainMessage in = tx.inMsg();
    String inHash = in != null && in.isExternalIn() ? in.hash() : null;
    return new Verified(new ChainPayment(txHash, tx.id().lt(), tx.utime(), tx.fee(), inHash, paying));
  }

  private ChainTransaction byLt(TonAddress wallet, String txHash, long lt)
      throws InterruptedException, ExecutionException, TimeoutException {
    List<ChainTransaction> page = api.getTransactions(wallet, 1, new TransactionId(lt, txHash), null)
        .get(callTimeout.toMillis(), TimeUnit.MILLISECONDS);
    return page.stream().filter(t -> t.id().hash().equals(txHash) && t.id().lt() == lt).findFirst().orElse(null);
  }

  private ChainTransaction byHash(TonAddress wallet, String txHash, Instant notBefore)
      throws InterruptedException, ExecutionException, TimeoutException {
    TransactionId from = null;
    for (int i = 0; i < MAX_PAGES; i++) {
      List<ChainTransaction> page = api.getTransactions(wallet, PAGE, from, null)
          .get(callTimeout.toMillis(), TimeUnit.MILLISECONDS);
      List<ChainTransaction> fresh = from == null || page.isEmpty() ? page : page.subList(1, page.size());
      for (ChainTransaction t : fresh) {
        if (t.id().hash().equals(txHash)) {
          return t;
        }
      }
      if (fresh.isEmpty() || page.size() < PAGE
          || fresh.get(fresh.size() - 1).utime() < notBefore.getEpochSecond()) {
        return null;
      }
      from = page.get(page.size() - 1).id();
    }
    return null;
  }

  private static String describe(List<ChainMessage> outs) {
    if (outs.isEmpty()) {
      return "none";
    }
    return String.join(", ", outs.stream().map(m -> m.value() + " to "
        + (m.destination() == null ? "(external)" : m.destination().toRaw())).toList());
  }

  /** The TON API could not be read: nothing was decided (the caller answers 503). */
  static final class ChainUnavailableException extends RuntimeException {
    ChainUnavailableException(String message, Throwable cause) {
      super(message, cause);
    }
  }
}
