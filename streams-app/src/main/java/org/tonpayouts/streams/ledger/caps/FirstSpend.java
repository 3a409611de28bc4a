package org.tonpayouts.streams.ledger.caps;

/**
 * A transfer about to have its first message recorded: the one moment its amount counts toward the
 * spend caps. Later attempts of the transfer (same seqno) are never checked nor counted again.
 */
public record FirstSpend(String requestId, String transferId, long subwalletId, String walletAddress,
                         long amountNano) {}
