package org.tonpayouts.streams.wallet;

import java.time.Instant;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.tonpayouts.schemas.PayoutRequest;

/**
 * Accepting a validated request into its wallet's queue: a store write, never a round, so a
 * backlog of requests never holds up the verdicts behind it. A copy of a request already accepted
 * is dropped, one with the same requestId and other content is refused, and so is one that would
 * overfill the wallet's backlog ({@code wallet.backlog.max}).
 */
final class RequestIntake {
  private static final Logger log = LoggerFactory.getLogger(WalletTxProcessor.class);

  private final TaskWallets wallets;
  private final RequestMemory memory;
  private final WalletTxDependencies deps;

  RequestIntake(TaskWallets wallets, RequestMemory memory, WalletTxDependencies deps) {
    this.wallets = wallets;
    this.memory = memory;
    this.deps = deps;
  }

  void accept(String key, PayoutRequest request, Instant recordTime) {
    RequestMemory.Seen seen = memory.lookup(request, recordTime);
    if (seen instanceof RequestMemory.Duplicate) {
      deps.metrics().duplicate();
      log.info("duplicate request ignored subwallet={} request={}", key, request.requestId());
      return;
    }
    if (seen instanceof RequestMemory.Conflict conflict) {
      deps.metrics().conflict();
      wallets.reject(key, wallets.queued(request), "requestId '" + request.requestId() + "' was already accepted"
          + " with other content; a requestId pays one thing, this request is refused. Differences (first -> this): "
          + String.join("; ", conflict.differences()));
      return;
    }
    WalletHead head = wallets.load(key, request.subwalletId());
    int backlogMax = deps.settings().backlogMax();
    if (head.queued() >= backlogMax) {
      deps.metrics().backlogFull();
      wallets.reject(key, wallets.queued(request), "wallet backlog full: subwallet " + request.subwalletId() + " has "
          + head.queued() + " requests queued (limit " + backlogMax + ", wallet.backlog.max); send it again later");
      return;
    }
    WalletHead next = wallets.enqueue(key, head, wallets.queued(request));
    memory.remember(request, recordTime);
    deps.metrics().accepted();
    log.info("request accepted subwallet={} request={} transfers={} queued={}", key, request.requestId(),
        request.transfers().size(), next.queued());
  }
}
