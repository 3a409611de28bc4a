package org.tonpayouts.poller;

import java.util.Objects;
import org.tonpayouts.ton.api.TransactionId;

/**
 * How far the poller has followed one jetton transfer after the wallet handed it to the
 * subwallet's own jetton wallet: the wallet's transaction that sent the message, each jetton
 * wallet's transaction found since, and where the search of the account it is looking at now
 * stands. Kept in {@link WatchedTransfer} (so in the {@code watched-wallets} store): a restarted
 * poller follows on from here, and a new attempt or a re-check of the transfer keeps it.
 *
 * <p>The stage follows from what is known ({@link #stage}): the sender jetton wallet's transaction
 * that took our {@code transfer}, then the receiver jetton wallet's that took its {@code
 * internal_transfer}, then, only when the receiver refused, the sender jetton wallet's re-credit.
 *
 * @param handOver the wallet's transaction that sent the transfer to our jetton wallet
 * @param sender the sender jetton wallet's transaction that took it and handed it on; null until found
 * @param receiver the receiver jetton wallet's transaction that refused it; null until found (an
 *     accepting one concludes at once and is never kept)
 * @param cursor where the search of the current stage's account stands
 */
public record JettonTrail(HandOver handOver, Hop sender, Hop receiver, Cursor cursor) {

  /** What the trail is looking for now. */
  enum Stage {
    /** The sender jetton wallet's transaction taking our {@code transfer}. */
    SENDER,
    /** The receiver jetton wallet's transaction taking the sender's {@code internal_transfer}. */
    RECEIVER,
    /** The sender jetton wallet's transaction taking the receiver's bounce back (the re-credit). */
    RECREDIT
  }

  public JettonTrail {
    Objects.requireNonNull(handOver, "handOver");
    Objects.requireNonNull(cursor, "cursor");
  }

  /** A trail that starts at the wallet's transaction {@code handOver}: every transaction it caused has a larger lt. */
  static JettonTrail handedOver(HandOver handOver) {
    return new JettonTrail(handOver, null, null, Cursor.above(handOver.lt()));
  }

  Stage stage() {
    return sender == null ? Stage.SENDER : receiver == null ? Stage.RECEIVER : Stage.RECREDIT;
  }

  JettonTrail withSender(Hop hop) {
    return new JettonTrail(handOver, hop, null, Cursor.above(hop.lt()));
  }

  JettonTrail withReceiver(Hop hop) {
    return new JettonTrail(handOver, sender, hop, Cursor.above(hop.lt()));
  }

  JettonTrail withCursor(Cursor next) {
    return new JettonTrail(handOver, sender, receiver, next);
  }

  /**
   * The wallet's transaction that sent the transfer's message to our jetton wallet: what the
   * verdict names as the transfer's transaction (its seqno is consumed whatever the jetton wallets do).
   *
   * @param messageHash the transfer's message that applied (the one the verdict names)
   * @param txHash the wallet's transaction
   * @param lt its logical time
   * @param utime its unix time
   * @param fee its total fee, nanotons
   * @param messageLt created_lt of its message to our jetton wallet; null when not reported
   * @param note how the transaction was found when not by one of the transfer's hashes; null otherwise
   */
  public record HandOver(String messageHash, String txHash, long lt, long utime, long fee, Long messageLt,
                         String note) {
    public HandOver {
      Objects.requireNonNull(messageHash, "messageHash");
      Objects.requireNonNull(txHash, "txHash");
    }
  }

  /**
   * A jetton wallet's transaction on the transfer's trail.
   *
   * @param account the jetton wallet, raw form
   * @param txHash its transaction
   * @param lt the transaction's logical time
   * @param exitCode its compute phase's exit code, when it threw (null: it did not, or unreadable)
   * @param nextAccount where the message it sent on goes (the receiver jetton wallet; for a refusal, the sender's)
   * @param nextMessageLt created_lt of that message; null when not reported
   */
  public record Hop(String account, String txHash, long lt, Integer exitCode, String nextAccount, Long nextMessageLt) {
    public Hop {
      Objects.requireNonNull(account, "account");
      Objects.requireNonNull(txHash, "txHash");
      Objects.requireNonNull(nextAccount, "nextAccount");
    }
  }

  /**
   * Where the search of the current stage's account stands: its transactions are read newest
   * first, down to {@code floorLt}, a few pages a round.
   *
   * @param floorLt every transaction at or below it has been examined (or cannot be the one sought)
   * @param resumeFrom a search cut short by its page budget: it read from {@code topLt} down to
   *     here, and goes on from here next round; null when none is in progress
   * @param topLt the newest transaction of the search in progress; null when none is
   */
  public record Cursor(long floorLt, TransactionId resumeFrom, Long topLt) {
    static Cursor above(long lt) {
      return new Cursor(lt, null, null);
    }
  }
}
