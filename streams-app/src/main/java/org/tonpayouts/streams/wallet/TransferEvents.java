package org.tonpayouts.streams.wallet;

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
    return Submission.of(message.requestId(), message.transferId(), message.transferIndex(), message.subwalletId(),
        message.walletAddress(), message.seqno(), message.messageHash(), message.normalizedHash(),
        message.validUntil().getEpochSecond(), message.destination(), message.amountNano(), message.attempt(), now,
        hashes, firstSubmittedAt, IssuingRound.bounceOf(transfer), recheck);
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
    return Settlement.of(request.requestId(), asked.transferId(), transfer.transferIndex(), request.subwalletId(),
        asked.kind(), asked.destination(), asked.amountNano(), status, paid ? transfer.txHash() : null,
        paid ? lt : null, transfer.seqno(), paid ? fee : null, messageHash, paid ? null : transfer.reason(),
        request.createdAt(), now);
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
