package org.tonpayouts.streams.admin;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import org.tonpayouts.streams.ledger.sql.LedgerRow;
import org.tonpayouts.streams.ledger.sql.TransferRow;
import org.tonpayouts.ton.address.TonAddress;
import org.tonpayouts.ton.api.WalletSnapshot;

/**
 * Tells from the chain whether a message at a transfer's seqno N could still apply, the first
 * evidence every resolution needs: it cannot once the API node's own synced time is past every
 * attempt's {@code valid_until} plus the clock-skew margin (none of ours can apply) and the
 * wallet's seqno is past N (nobody's message at N can apply). The node's time, never ours, so a
 * lagging node delays the conclusion and never causes it (DESIGN.md, the safe-retry rule).
 */
final class MessageWindow {
  private final ChainReads chain;
  private final Duration clockSkew;

  /** The window, from one wallet state read. */
  sealed interface Outcome {}

  /**
   * No message at the transfer's seqno can apply any more.
   *
   * @param latestValidUntil the latest {@code valid_until} of the transfer's messages, null when none was signed
   */
  record Closed(WalletSnapshot snapshot, Long latestValidUntil) implements Outcome {}

  /** A message at the transfer's seqno could still apply, or nothing tells: {@code missing} says what. */
  record Open(String missing) implements Outcome {}

  MessageWindow(ChainReads chain, Duration clockSkew) {
    this.chain = chain;
    this.clockSkew = clockSkew;
  }

  Outcome check(TransferRow transfer, List<LedgerRow> attempts) throws InterruptedException {
    if (transfer.seqno() == null) {
      return new Open("transfer " + transfer.requestId() + "/" + transfer.transferId() + " has no seqno (no message"
          + " was signed for it): the chain cannot tell which of its wallet's transactions could have paid it");
    }
    long seqno = transfer.seqno();
    WalletSnapshot state = chain.snapshot(TonAddress.parse(transfer.walletAddress()));
    List<String> missing = new ArrayList<>();
    Optional<LedgerRow> latest = attempts.stream().max(Comparator.comparing(LedgerRow::validUntil));
    if (latest.isPresent()) {
      Instant due = latest.get().validUntil().plus(clockSkew);
      if (state.syncUtime() < due.getEpochSecond()) {
        missing.add("the TON API node's synced time " + Instant.ofEpochSecond(state.syncUtime()) + " is not past the"
            + " latest valid_until " + latest.get().validUntil() + " of the transfer's messages plus the clock-skew"
            + " margin of " + clockSkew.toSeconds() + " s: message " + latest.get().messageHash() + " could still"
            + " apply; ask again once the node's time is past " + due);
      }
    }
    if (state.seqno() <= seqno) {
      missing.add("the wallet's seqno is " + state.seqno() + ", not past the transfer's seqno " + seqno
          + ": a message at seqno " + seqno + " (ours or another signer's) could still apply");
    }
    if (!missing.isEmpty()) {
      return new Open(String.join("; ", missing));
    }
    return new Closed(state, latest.map(m -> m.validUntil().getEpochSecond()).orElse(null));
  }
}
