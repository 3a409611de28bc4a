package org.tonpayouts.streams.admin;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Objects;
import org.tonpayouts.streams.ledger.operator.ChainPayment;
import org.tonpayouts.streams.ledger.operator.NonPaymentEvidence;
import org.tonpayouts.streams.ledger.sql.LedgerRow;
import org.tonpayouts.streams.ledger.sql.TransferRow;
import org.tonpayouts.ton.address.TonAddress;

/**
 * Reads from the chain the evidence a FAILED resolution rests on: no message at the transfer's
 * seqno can still apply ({@link MessageWindow}), and every transaction of the wallet from the
 * newest back to the transfer's recording (less the clock-skew margin) was read, with those that
 * pay the transfer's destination its amount picked out. The ledger then refuses while one of those
 * is not accounted for ({@code Resolutions.fail}).
 */
final class FailureEvidence {
  private final ChainReads chain;
  private final MessageWindow window;
  private final Duration clockSkew;

  /** The evidence, or what is missing for it. */
  sealed interface Outcome {}

  record Gathered(NonPaymentEvidence evidence) implements Outcome {}

  record Missing(String missing) implements Outcome {}

  FailureEvidence(ChainReads chain, MessageWindow window, Duration clockSkew) {
    this.chain = chain;
    this.window = window;
    this.clockSkew = clockSkew;
  }

  Outcome gather(TransferRow transfer, List<LedgerRow> attempts) throws InterruptedException {
    MessageWindow.Outcome checked = window.check(transfer, attempts);
    if (checked instanceof MessageWindow.Open open) {
      return new Missing(open.missing());
    }
    MessageWindow.Closed closed = (MessageWindow.Closed) checked;
    TonAddress wallet = TonAddress.parse(transfer.walletAddress());
    long floor = transfer.createdAt().minus(clockSkew).getEpochSecond();
    ChainReads.Back back = chain.back(wallet, floor, t -> false);
    if (!back.complete()) {
      return new Missing("the wallet's transactions back to the transfer's recording (" + Instant.ofEpochSecond(floor)
          + ") are more than " + ChainReads.MAX_PAGES * ChainReads.PAGE + ": not all of them could be read to show"
          + " that none pays " + transfer.amountNano() + " nanotons to " + transfer.destination());
    }
    long newestLt = back.newestFirst().isEmpty() ? 0 : back.newestFirst().get(0).id().lt();
    if (newestLt < closed.snapshot().lastTransactionLt()) {
      return new Missing("the TON API's transaction list of " + wallet.toRaw() + " ends at lt " + newestLt
          + ", behind the wallet state it reported (last transaction lt " + closed.snapshot().lastTransactionLt()
          + "): the transactions read are not complete; try again");
    }
    TonAddress destination = TonAddress.parse(transfer.destination());
    List<ChainPayment> matches = back.newestFirst().stream()
        .filter(t -> t.utime() >= floor)
        .map(t -> ChainCheck.payment(t, destination, transfer.amountNano()))
        .filter(Objects::nonNull)
        .toList();
    return new Gathered(new NonPaymentEvidence(closed.snapshot().syncUtime(), closed.snapshot().seqno(),
        closed.latestValidUntil(), floor, back.read(), matches));
  }
}
