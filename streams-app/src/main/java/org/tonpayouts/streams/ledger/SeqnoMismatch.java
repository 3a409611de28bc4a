package org.tonpayouts.streams.ledger;

import java.time.Instant;

/**
 * A {@code wallet_audit} row: the wallet's seqno did not match what our own history explains, so
 * something else signed with the key. Counted and kept for the operators; the chain is trusted.
 */
public record SeqnoMismatch(
    long id,
    long subwalletId,
    String walletAddress,
    Long expectedSeqno,
    Long observedSeqno,
    String detail,
    Instant at) {}
