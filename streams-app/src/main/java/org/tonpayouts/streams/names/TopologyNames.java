package org.tonpayouts.streams.names;

/**
 * The names in streams-app's topology, in one place: its sources, processors, sinks and state
 * stores. The topology ({@code PayoutTopology}) builds with them, the processors forward to and
 * open them, the admin API queries the stores by them, and an error names the processor by them
 * ({@code processor=wallet-tx}). They are part of the deployment: the stores' changelog topics
 * are named after them, so a renamed store starts empty.
 */
public final class TopologyNames {
  /** {@code payout.requests}, read as raw bytes. */
  public static final String REQUESTS_SOURCE = "requests-source";
  /** {@code payout.confirmations}, the chain poller's verdicts. */
  public static final String CONFIRMATIONS_SOURCE = "confirmations-source";

  /** The gate of {@code payout.requests}: valid requests on to {@link #WALLET_TX}, the rest to {@link #REJECTED_SINK}. */
  public static final String REQUEST_VALIDATOR = "request-validator";
  /** The wallet state machine: queues, issues, settles. */
  public static final String WALLET_TX = "wallet-tx";

  /** {@code payout.rejected}: the validator's refusals and wallet-tx's (backlog, requestId conflicts). */
  public static final String REJECTED_SINK = "rejected-sink";
  /** {@code payout.submissions}: the chain poller's watch list. */
  public static final String SUBMISSIONS_SINK = "submissions-sink";
  /** {@code payout.settlements}. */
  public static final String SETTLEMENTS_SINK = "settlements-sink";

  /** wallet-tx's small per-wallet head: queue positions, the transfer being paid, its seqno and hashes. */
  public static final String WALLET_HEADS_STORE = "wallet-heads";
  /** wallet-tx's queued requests, one per key. */
  public static final String WALLET_QUEUE_STORE = "wallet-queue";
  /** wallet-tx's accepted requestIds within the dedup retention (a window store). */
  public static final String REQUEST_MEMORY_STORE = "accepted-request-ids";

  private TopologyNames() {}
}
