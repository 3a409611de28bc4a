package org.tonpayouts.streams.wallet;

import java.util.List;
import java.util.Objects;
import java.util.function.Consumer;
import org.tonpayouts.runtime.ops.OutageLog;
import org.tonpayouts.streams.ledger.sql.LedgerException;

/**
 * Runs the I/O batches that need the ledger (issuing rounds, verdicts, re-checks) so that the
 * ledger going away reads as one outage: logged when it starts, summarised while it lasts and
 * logged when it ends ({@link OutageLog}), instead of an error with a stack trace from the batcher
 * at every round, several a second. The jobs of a batch the ledger failed are handed back as the
 * batcher would hand them back (their processors try again later); anything else is still the
 * batcher's to report, loudly: it is a bug, not an outage.
 */
final class LedgerBatches {
  private final OutageLog outage;

  LedgerBatches(OutageLog outage) {
    this.outage = Objects.requireNonNull(outage, "outage");
  }

  /**
   * @param what the kind of batch, as the outage's key: {@code issuing}, {@code verdicts}
   * @param run the batch
   * @param handBack what the jobs get when the ledger failed them
   */
  <J> Consumer<List<J>> guard(String what, Consumer<List<J>> run, Consumer<List<J>> handBack) {
    return jobs -> {
      try {
        run.accept(jobs);
      } catch (LedgerException e) {
        outage.failed(what, e.getMessage());
        handBack.accept(jobs);
        return;
      }
      outage.succeeded(what);
    };
  }

  /** True while the last batch of some kind failed on the ledger. */
  boolean ledgerDown() {
    return outage.down();
  }
}
