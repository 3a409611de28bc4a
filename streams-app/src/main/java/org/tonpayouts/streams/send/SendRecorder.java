package org.tonpayouts.streams.send;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.tonpayouts.runtime.async.Batcher;
import org.tonpayouts.streams.ledger.Ledger;
import org.tonpayouts.streams.ledger.sql.LedgerRow;
import org.tonpayouts.streams.metrics.PayoutMetrics;
import org.tonpayouts.ton.api.Failures;
import org.tonpayouts.ton.api.SentMessage;

/**
 * What the API answered to the issuing rounds' sends, recorded when it answers rather than inside
 * the round: a round ends once its intents are in the ledger and its messages handed to the API,
 * so the next round does not wait for this one's slowest send. Acknowledged sends go to the
 * {@link SendLog}, which records them with their verdict; an unacknowledged one (an error, or no
 * answer within {@code timeout}) gets its error noted and stays live, since it may have been delivered
 * (DESIGN.md, safe-retry rule). Either way the {@link Resender} watches the message until the
 * chain decides it.
 */
public final class SendRecorder implements AutoCloseable {
  private static final Logger log = LoggerFactory.getLogger(SendRecorder.class);

  private record Answer(LedgerRow row, SentMessage sent, Throwable error) {}

  private final Ledger ledger;
  private final SendLog sendLog;
  private final Resender resender;
  private final PayoutMetrics metrics;
  private final Duration timeout;
  private final Batcher<Answer> answers;
  /** Sends handed to the API whose answer has not reached {@link #answers} yet. */
  private final AtomicInteger unanswered = new AtomicInteger();

  public SendRecorder(Ledger ledger, SendLog sendLog, Resender resender, PayoutMetrics metrics, Duration timeout) {
    this.ledger = ledger;
    this.sendLog = sendLog;
    this.resender = resender;
    this.metrics = metrics;
    this.timeout = timeout;
    this.answers = new Batcher<>("payout-sends", this::record,
        batch -> batch.forEach(a -> resender.watch(a.row(), a.error() == null)));
  }

  /** Records the answer to {@code send}, the API call that handed {@code row}'s message over, when it comes. */
  public void track(LedgerRow row, CompletableFuture<SentMessage> send) {
    unanswered.incrementAndGet();
    send.copy().orTimeout(timeout.toMillis(), java.util.concurrent.TimeUnit.MILLISECONDS)
        .whenComplete((sent, error) -> {
          answers.submit(new Answer(row, sent, error));
          unanswered.decrementAndGet();
        });
  }

  private void record(List<Answer> batch) {
    for (Answer answer : batch) {
      LedgerRow row = answer.row();
      if (answer.error() == null) {
        if (!row.messageHash().equals(answer.sent().hash())) {
          log.warn("API reported another hash subwallet={} ours={} theirs={}", row.subwalletId(), row.messageHash(),
              answer.sent().hash());
        }
        sendLog.sent(row.messageHash());
        resender.watch(row, true);
        continue;
      }
      Throwable cause = Failures.cause(answer.error());
      String why = cause instanceof TimeoutException ? "send timed out after " + timeout.toMillis() + " ms"
          : cause.getClass().getSimpleName() + ": " + cause.getMessage();
      metrics.sendError();
      log.warn("send not acknowledged subwallet={} request={} transfer={} seqno={} hash={} reason={}",
          row.subwalletId(), row.requestId(), row.transferId(), row.seqno(), row.messageHash(), why);
      // Delivered or not, the message is watched until the chain decides (DESIGN.md, safe-retry rule).
      resender.watch(row, false);
      try {
        ledger.transitions().recordError(row.messageHash(), why);
      } catch (RuntimeException e) {
        log.warn("send error not recorded in the ledger hash={} error={}", row.messageHash(), e.toString());
      }
    }
  }

  /** True when every send tracked so far has its answer recorded (tests wait for it; the pipeline never does). */
  public boolean idle() {
    return unanswered.get() == 0 && answers.idle();
  }

  @Override
  public void close() {
    answers.close();
  }
}
