package org.tonpayouts.devnet.chain;

/**
 * Counters of what the chain did since it started.
 *
 * @param accepted external messages that passed the send-time check and entered the mempool
 * @param rejected external messages refused at send time (toncenter's HTTP 500)
 * @param applied external messages that became successful transactions
 * @param aborted external messages whose transaction aborted (action phase failed; kept pending)
 * @param vanished accepted messages that failed the block-time check and left no trace
 * @param foreignTransfers transfers injected with the admin endpoint that were applied
 * @param contractRuns internal messages a contract devnet runs (jetton wallet, minter) completed
 * @param contractFailures internal messages a contract threw on or whose action phase failed
 */
public record ChainStats(long accepted, long rejected, long applied, long aborted, long vanished,
                         long foreignTransfers, long transactions, int accounts, int pending, long contractRuns,
                         long contractFailures) {}
