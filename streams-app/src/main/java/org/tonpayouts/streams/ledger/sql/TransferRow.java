package org.tonpayouts.streams.ledger.sql;

import org.tonpayouts.schemas.JettonAmount;
import org.tonpayouts.schemas.JettonDelivery;

import java.time.Instant;

/**
 * One row of {@code payout_transfers}: a requested transfer, the seqno it is bound to and its
 * status. Every message signed for it (rows of {@code ton_transactions}) carries {@link #seqno}.
 *
 * @param requestedAt the request's createdAt
 * @param seqno the seqno its first message was signed with; null while none was signed
 * @param attempts messages signed for it so far
 * @param reason why it is FAILED, ABORTED or RECONCILIATION_REQUIRED
 * @param messageHash the message that applied (SETTLED, or FAILED by the chain)
 * @param txHash that message's transaction
 * @param bounceTxHash the transaction that brought a bounced payout back, null when none did
 * @param returnedNano what came back with the bounce
 * @param jetton a jetton transfer's jetton (master, raw) and amount; null for TON
 * @param jettonQueryId a jetton transfer's TEP-74 query_id, recorded with its first intent; null for TON
 * @param jettonDelivery a decided jetton transfer's jetton wallet transactions, as its verdict named them; null otherwise
 */
public record TransferRow(
    String requestId,
    String transferId,
    int transferIndex,
    String kind,
    long subwalletId,
    String walletAddress,
    String destination,
    long amountNano,
    Instant requestedAt,
    Long seqno,
    int attempts,
    TransferStatus status,
    String reason,
    String messageHash,
    String txHash,
    String bounceTxHash,
    Long returnedNano,
    Instant createdAt,
    Instant updatedAt,
    Instant settledAt,
    JettonAmount jetton,
    Long jettonQueryId,
    JettonDelivery jettonDelivery) {}
