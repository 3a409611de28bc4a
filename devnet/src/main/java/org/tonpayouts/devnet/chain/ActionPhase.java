package org.tonpayouts.devnet.chain;

import java.util.ArrayList;
import java.util.List;
import org.tonpayouts.ton.address.TonAddress;
import org.tonpayouts.ton.cell.MessageCells;
import org.tonpayouts.ton.cell.TonCell;

/**
 * The action phase of a wallet transaction: what its {@code send_raw_message} actions do with the
 * balance left after the compute fee, by send mode, computed without side effects (the caller
 * commits a successful plan or records an aborted transaction).
 *
 * <p>Modes: +1 pays the forwarding fee on top of the value (else it comes out of the value), +2
 * skips a send that fails (else the whole action phase fails), 64 adds the inbound value (0 for
 * an external message), 128 carries the whole remaining balance, +32 destroys an account left
 * with nothing, +16 (bounce on action failure) is accepted and ignored.
 */
final class ActionPhase {
  static final int MODE_PAY_FEES_SEPARATELY = 1;
  static final int MODE_IGNORE_ERRORS = 2;
  static final int MODE_BOUNCE_ON_ACTION_FAIL = 16;
  static final int MODE_DESTROY_IF_ZERO = 32;
  static final int MODE_CARRY_INBOUND_VALUE = 64;
  static final int MODE_CARRY_ALL_BALANCE = 128;
  /** Action phase result codes of the real VM. */
  static final int RESULT_INVALID_MESSAGE = 34;
  static final int RESULT_NOT_ENOUGH_BALANCE = 37;
  /** No balance reaches 2^62 nanotons; a larger value cannot be sent (and would overflow the sums). */
  private static final long MAX_VALUE = (1L << 62) - 1;

  /**
   * One outgoing message the plan sends: value after fees and the fee charged for it.
   *
   * @param init the StateInit cell it carries, or {@code null}
   */
  record Send(TonAddress destination, long value, long fwdFee, boolean bounce, TonCell body, TonCell init) {}

  /** The outcome: the sends, or the failure (set when a send without +2 fails: the transaction aborts). */
  static final class Plan {
    final List<Send> sends = new ArrayList<>();
    final List<String> skipNotes = new ArrayList<>();
    String failure;
    /** The failing action's index and result code, when {@link #failure} is set. */
    Integer failedAt;
    int failureCode;
    long remaining;
    long fwdFees;
    int skipped;
    boolean destroy;
  }

  private ActionPhase() {}

  /** What the actions do with {@code available} nanotons. */
  static Plan plan(List<WalletV4R2.Action> actions, long available) {
    Plan plan = new Plan();
    long remaining = available;
    for (int i = 0; i < actions.size(); i++) {
      WalletV4R2.Action action = actions.get(i);
      int mode = action.mode();
      String error = null;
      int code = 0;
      Send send = null;
      Decoded decoded = decode(action.message());
      int base = mode & ~(MODE_PAY_FEES_SEPARATELY | MODE_IGNORE_ERRORS | MODE_BOUNCE_ON_ACTION_FAIL
          | MODE_DESTROY_IF_ZERO);
      if (decoded.error != null) {
        code = RESULT_INVALID_MESSAGE;
        error = decoded.error;
      } else if (base != 0 && base != MODE_CARRY_INBOUND_VALUE && base != MODE_CARRY_ALL_BALANCE) {
        code = RESULT_INVALID_MESSAGE;
        error = "send mode " + mode + " is not supported";
      } else {
        code = RESULT_NOT_ENOUGH_BALANCE;
        long fwd = Fees.FORWARD_FEE;
        long value = decoded.value; // mode 64 adds the inbound value, which is 0 for an external message
        if (base == MODE_CARRY_ALL_BALANCE) {
          if (remaining < fwd) {
            error = notEnough(remaining, fwd);
          } else {
            send = decoded.send(remaining - fwd, fwd);
            remaining = 0;
          }
        } else if ((mode & MODE_PAY_FEES_SEPARATELY) != 0) {
          if (remaining < value + fwd) {
            error = notEnough(remaining, value + fwd);
          } else {
            send = decoded.send(value, fwd);
            remaining -= value + fwd;
          }
        } else if (value < fwd || remaining < value) {
          error = notEnough(remaining, Math.max(value, fwd));
        } else {
          send = decoded.send(value - fwd, fwd);
          remaining -= value;
        }
      }
      if (error != null) {
        String result = "result_code=" + code + " (" + error + ")";
        if ((mode & MODE_IGNORE_ERRORS) == 0) {
          plan.failure = "action phase failed at send #" + i + " (mode " + mode + "): " + result;
          plan.failedAt = i;
          plan.failureCode = code;
          return plan;
        }
        plan.skipped++;
        plan.skipNotes.add("#" + i + " " + result);
        continue;
      }
      plan.sends.add(send);
      plan.fwdFees += send.fwdFee();
      if ((mode & MODE_DESTROY_IF_ZERO) != 0) {
        plan.destroy = true;
      }
    }
    plan.remaining = remaining;
    return plan;
  }

  private static String notEnough(long remaining, long needed) {
    return "not enough TON: " + remaining + " left, " + needed + " needed";
  }

  /** An outbound message as the wallet asked to send it, or why it cannot be sent. */
  private record Decoded(String error, TonAddress destination, long value, boolean bounce, TonCell body, TonCell init) {
    static Decoded error(String error) {
      return new Decoded(error, null, 0, false, null, null);
    }

    Send send(long sentValue, long fwdFee) {
      return new Send(destination, sentValue, fwdFee, bounce, body, init);
    }
  }

  private static Decoded decode(TonCell cell) {
    if (cell.bitLength() > 0 && cell.bit(0)) {
      return Decoded.error("only internal outbound messages are modelled"); // ext_out_msg_info$11
    }
    MessageCells.Internal message;
    TonCell init;
    try {
      message = MessageCells.readInternal(cell);
      init = message.init() == null ? null : message.init().cell();
    } catch (RuntimeException e) {
      // MalformedCellException says why; anything else the wallet's cells make the reader throw is still invalid
      return Decoded.error("cannot parse the outbound message: " + e.getMessage());
    }
    if (message.value() > MAX_VALUE) {
      return Decoded.error("value " + message.value() + " exceeds any balance");
    }
    return new Decoded(null, message.destination(), message.value(), message.bounce(), message.body(), init);
  }
}
