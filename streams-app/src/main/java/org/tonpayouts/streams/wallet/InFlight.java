package org.tonpayouts.streams.wallet;

/**
 * The one message of a wallet that may still apply: signed, recorded in the ledger, handed to
 * the API and announced on {@code payout.submissions}.
 *
 * @param attempt 1 for the first message of the transfer, then 2, 3...
 * @param messageHash hex hash of the external message; confirmations are matched by it
 * @param seqno wallet seqno the message was signed with
 * @param validUntil unix seconds after which the wallet refuses it
 */
public record InFlight(int attempt, String messageHash, long seqno, long validUntil) {}
