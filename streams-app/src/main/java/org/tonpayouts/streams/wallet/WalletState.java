package org.tonpayouts.streams.wallet;

import java.util.ArrayList;
import java.util.List;
import org.tonpayouts.schemas.PayoutRequest;
import org.tonpayouts.schemas.TransferRequest;

/**
 * What the wallet-tx processor knows about one subwallet, stored in {@link WalletTxProcessor#WALLET_STORE}
 * under the subwallet id: the FIFO of accepted requests, the transfer being worked on and the one
 * message in flight.
 *
 * <p>The head of {@code queue} is the request being paid; {@code transferIndex} is its transfer
 * that is in flight (when {@code inFlight} is set) or next to issue. {@code attempts} counts the
 * messages signed for that transfer so far (a new one is signed only after the previous one
 * provably expired). {@code lastAppliedSeqno} is the seqno of our newest message known to have
 * applied on chain (confirmed or failed), the floor of the stale-read guard; null when unknown.
 */
public record WalletState(
    long subwalletId,
    List<PayoutRequest> queue,
    int transferIndex,
    int attempts,
    InFlight inFlight,
    Long lastAppliedSeqno) {

  public WalletState {
    queue = List.copyOf(queue);
  }

  public static WalletState empty(long subwalletId) {
    return new WalletState(subwalletId, List.of(), 0, 0, null, null);
  }

  /** True when the wallet has work and nothing in flight: the next issuing round should sign for it. */
  public boolean readyToIssue() {
    return inFlight == null && !queue.isEmpty();
  }

  public boolean idle() {
    return inFlight == null && queue.isEmpty();
  }

  public PayoutRequest currentRequest() {
    return queue.get(0);
  }

  public TransferRequest currentTransfer() {
    return currentRequest().transfer(transferIndex);
  }

  public WalletState enqueue(PayoutRequest request) {
    List<PayoutRequest> longer = new ArrayList<>(queue);
    longer.add(request);
    return new WalletState(subwalletId, longer, transferIndex, attempts, inFlight, lastAppliedSeqno);
  }

  /** A message was signed and handed to the API for the current transfer. */
  public WalletState submitted(InFlight message) {
    return new WalletState(subwalletId, queue, transferIndex, message.attempt(), message, lastAppliedSeqno);
  }

  /** The in-flight message provably never applied: the same transfer gets a new message. */
  public WalletState expired() {
    return new WalletState(subwalletId, queue, transferIndex, attempts, null, lastAppliedSeqno);
  }

  /** The current transfer is settled: move to the next transfer of the request, or the next request. */
  public WalletState advance(Long appliedSeqno) {
    Long floor = appliedSeqno != null ? appliedSeqno : lastAppliedSeqno;
    if (transferIndex + 1 < currentRequest().transfers().size()) {
      return new WalletState(subwalletId, queue, transferIndex + 1, 0, null, floor);
    }
    return dropCurrentRequest(floor);
  }

  /** The rest of the current request is abandoned (a transfer failed): move to the next request. */
  public WalletState dropCurrentRequest(Long appliedSeqno) {
    return new WalletState(subwalletId, queue.subList(1, queue.size()), 0, 0, null, appliedSeqno);
  }

  /** The chain showed a seqno we cannot account for: forget the floor and trust the next read. */
  public WalletState withUnknownSeqno() {
    return new WalletState(subwalletId, queue, transferIndex, attempts, inFlight, null);
  }

  public WalletState withLastAppliedSeqno(Long seqno) {
    return new WalletState(subwalletId, queue, transferIndex, attempts, inFlight, seqno);
  }
}
