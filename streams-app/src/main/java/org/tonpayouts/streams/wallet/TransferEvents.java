package org.tonpayouts.streams.wallet;

import org.tonpayouts.schemas.JettonDelivery;
import org.tonpayouts.schemas.JettonOrder;
import org.tonpayouts.ton.address.TonAddress;
import org.tonpayouts.ton.jetton.SignedJettonTransfer;

import java.time.Instant;
import java.util.List;
import org.tonpayouts.schemas.Confirmation;
import org.tonpayouts.schemas.PayoutRequest;
import org.tonpayouts.schemas.Settlement;
import org.tonpayouts.schemas.SettlementStatus;
import org.tonpayouts.schemas.Submission;
import org.tonpayouts.schemas.TransferKind;
import org.tonpayouts.schemas.TransferRequest;
import org.tonpayouts.streams.ledger.sql.LedgerRow;
import org.tonpayouts.streams.ledger.sql.TransferRow;

/**
 * The events the wallet-tx processor publishes, built from the ledger's rows: a settlement is
 * always what the ledger holds for the transfer (the ledger is written first), a submission
 * always names every hash the ledger holds for it.
 */
final class TransferEvents {
  private TransferEvents() {}

  /** The watch-list entry of {@code message}; {@code hashes} ends with its hash. */
  static Submission submission(PayoutRequest request, LedgerRow message, List<String> hashes, Instant firstSubmittedAt,
      boolean recheck, Instant now) {
    TransferRequest transfer = request.transfer(message.transferIndex());
    Submission submission = Submission.of(message.requestId(), message.transferId(), message.transferIndex(),
        message.subwalletId(), message.walletAddress(), message.seqno(), message.messageHash(), message.normalizedHash(),
        message.validUntil().getEpochSecond(), message.destination(), message.amountNano(), message.attempt(), now,
        hashes, firstSubmittedAt, IssuingRound.bounceOf(transfer), recheck);
    return transfer.paysJetton() ? submission.withJetton(jettonOrder(transfer, message)) : submission;
  }

  /** What the poller follows of a jetton transfer, read off the message as signed (not the configuration now). */
  private static JettonOrder jettonOrder(TransferRequest transfer, LedgerRow message) {
    SignedJettonTransfer signed = SignedJettonTransfer.read(message.boc()).orElseThrow(() -> new IllegalStateException(
        "message " + message.messageHash() + " of jetton transfer " + message.requestId() + "/" + message.transferId()
            + " carries no jetton transfer"));
    return new JettonOrder(TonAddress.parse(transfer.jetton().master()).toRaw(), signed.transfer().amount(),
        signed.transfer().queryId(), signed.jettonWallet().toRaw(), signed.transfer().forwardTonAmount());
  }

  /**
   * The settlement of a decided transfer, as the ledger holds it. {@code message} (the message
   * that decided it, may be null) and {@code verdict} (may be null) add the transaction's lt and fee.
   */
  static Settlement settlement(PayoutRequest request, TransferRow transfer, LedgerRow message, Confirmation verdict,
      Instant now) {
    TransferRequest asked = request.transfer(transfer.transferIndex());
    SettlementStatus status = transfer.status().asSettlementStatus();
    boolean paid = status == SettlementStatus.SETTLED;
    Long lt = null;
    Long fee = null;
    if (verdict != null && verdict.txHash() != null && verdict.txHash().equals(transfer.txHash())) {
      lt = verdict.lt();
      fee = verdict.feeNano();
    } else if (message != null && message.txHash() != null && message.txHash().equals(transfer.txHash())) {
      lt = message.lt();
      fee = message.feeNano();
    }
    String messageHash = transfer.messageHash() != null ? transfer.messageHash()
        : message != null ? message.messageHash() : null;
    Settlement settlement = Settlement.of(request.requestId(), asked.transferId(), transfer.transferIndex(),
        request.subwalletId(), asked.kind(), asked.destination(), asked.amountNano(), status,
        paid ? transfer.txHash() : null, paid ? lt : null, transfer.seqno(), paid ? fee : null, messageHash,
        paid ? null : transfer.reason(), request.createdAt(), now);
    if (!asked.paysJetton()) {
      return settlement;
    }
    // the jetton wallets' transactions: the deciding verdict's, else as the ledger kept them
    JettonDelivery delivery = verdict != null && verdict.jetton() != null && verdict.txHash() != null
        && verdict.txHash().equals(transfer.txHash()) ? verdict.jetton() : transfer.jettonDelivery();
    return settlement.withJetton(asked.jetton(), delivery);
  }

  /** ABORTED settlements of the request's transfers after {@code failedIndex}. */
  static List<Settlement> abortedAfter(PayoutRequest request, int failedIndex, String reason, Instant now) {
    return java.util.stream.IntStream.range(failedIndex + 1, request.transfers().size())
        .mapToObj(i -> Settlement.aborted(request, i, reason, now)).toList();
  }

  /** The BOUNCED correction of a settled transfer (from the ledger's row after the bounce was recorded). */
  static Settlement bounced(TransferRow transfer, Confirmation bounce, Instant now) {
    return Settlement.bounced(transfer.requestId(), transfer.transferId(), transfer.transferIndex(),
        transfer.subwalletId(), kindOf(transfer), transfer.destination(), transfer.amountNano(), bounce.txHash(),
        bounce.lt(), transfer.seqno(), transfer.messageHash(), bounce.returnedNano(),
        bounce.reason() != null ? bounce.reason() : "the payout bounced back from " + transfer.destination(),
        transfer.requestedAt() != null ? transfer.requestedAt() : transfer.createdAt(), now);
  }

  private static TransferKind kindOf(TransferRow transfer) {
    try {
      return TransferKind.valueOf(transfer.kind());
    } catch (IllegalArgumentException e) {
      return TransferKind.OTHER;
    }
  }
}
