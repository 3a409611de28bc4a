package org.tonpayouts.streams.admin;

import org.tonpayouts.streams.ledger.Ledger;
import org.tonpayouts.streams.ledger.operator.ApprovalAsk;
import org.tonpayouts.streams.ledger.operator.ChainPayment;
import org.tonpayouts.streams.ledger.operator.NonPaymentEvidence;
import org.tonpayouts.streams.ledger.sql.TransferRow;

/**
 * The chain evidence a resolution rests on, read when an operator asks for it and read again when a
 * second operator approves it (the chain may have moved in between): for SETTLED the named transaction
 * verified on chain, for FAILED the proof that no message can still apply and nothing unaccounted pays
 * the transfer.
 */
final class ResolutionProof {
  /** What the chain showed. */
  sealed interface Outcome {}

  /** SETTLED: the transaction pays the transfer. */
  record Paid(ChainPayment payment) implements Outcome {}

  /** FAILED: the transfer cannot be paid any more; {@code acknowledged} as the operator gave it. */
  record NotPaid(NonPaymentEvidence evidence, String acknowledged) implements Outcome {}

  /** SETTLED refused: the transaction does not pay the transfer (422). */
  record NotVerified(String why) implements Outcome {}

  /** Refused: the chain does not (yet) prove the outcome (409). */
  record Unproven(String missing) implements Outcome {}

  private final Ledger ledger;
  private final ChainCheck chain;
  private final FailureEvidence failures;

  ResolutionProof(Ledger ledger, ChainCheck chain, FailureEvidence failures) {
    this.ledger = ledger;
    this.chain = chain;
    this.failures = failures;
  }

  /**
   * Reads the chain for {@code ask} about {@code transfer}. A jetton transfer's is never proven
   * here: these checks read the subwallet's own transactions, where a jetton payout only shows as
   * TON handed to our jetton wallet; whether the receiver's jetton wallet accepted it shows on the
   * jetton wallets alone (docs/jettons.md), and a FAILED resolved without that could pay it twice.
   */
  Outcome of(TransferRow transfer, ApprovalAsk ask) throws InterruptedException {
    if (transfer.jetton() != null) {
      return new Unproven(jettonUnproven(transfer));
    }
    if (ask.outcome().equals("SETTLED")) {
      ChainCheck.Outcome checked = chain.verify(transfer, ask.txHash(), ask.lt());
      if (checked instanceof ChainCheck.NotVerified n) {
        return new NotVerified(n.why());
      }
      if (checked instanceof ChainCheck.Unproven u) {
        return new Unproven(u.missing());
      }
      return new Paid(((ChainCheck.Verified) checked).payment());
    }
    FailureEvidence.Outcome evidence = failures.gather(transfer,
        ledger.queries().attempts(transfer.requestId(), transfer.transferId()));
    if (evidence instanceof FailureEvidence.Missing m) {
      return new Unproven(m.missing());
    }
    return new NotPaid(((FailureEvidence.Gathered) evidence).evidence(), ask.acknowledged());
  }

  /** Why a jetton transfer's resolution is refused, and what the operator does instead. */
  static String jettonUnproven(TransferRow transfer) {
    return "transfer " + transfer.requestId() + "/" + transfer.transferId() + " pays a jetton (master "
        + transfer.jetton().master() + ", " + transfer.jetton().amount() + " base units, query_id "
        + transfer.jettonQueryId() + "): the admin API proves resolutions from the subwallet's transactions, which"
        + " show only the hand-over to our jetton wallet, never the receiver's acceptance; look for the receiver jetton"
        + " wallet's transaction taking internal_transfer with that query_id from our jetton wallet (docs/jettons.md),"
        + " and book the outcome outside this API";
  }
}
