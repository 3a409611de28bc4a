package org.tonpayouts.devnet.chain;

import java.math.BigInteger;
import java.util.ArrayList;
import java.util.List;
import org.ton.ton4j.cell.Cell;
import org.ton.ton4j.cell.CellSlice;
import org.ton.ton4j.tlb.InternalMessageInfoRelaxed;
import org.ton.ton4j.tlb.MessageRelaxed;
import org.ton.ton4j.tlb.MsgAddressIntStd;
import org.ton.ton4j.tlb.StateInit;
import org.tonpayouts.ton.address.TonAddress;

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

  /** One outgoing message the plan sends: value after fees and the fee charged for it. */
  record Send(TonAddress destination, long value, long fwdFee, boolean bounce, Cell body, StateInit init,
              Cell initCell) {}

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
  private record Decoded(String error, TonAddress destination, long value, boolean bounce, Cell body, StateInit init) {
    static Decoded error(String error) {
      return new Decoded(error, null, 0, false, null, null);
    }

    Send send(long sentValue, long fwdFee) {
      return new Send(destination, sentValue, fwdFee, bounce, body, init, init == null ? null : init.toCell());
    }
  }

  private static Decoded decode(Cell cell) {
    MessageRelaxed relaxed;
    try {
      relaxed = MessageRelaxed.deserialize(CellSlice.beginParse(cell));
    } catch (RuntimeException | AssertionError e) {
      return Decoded.error("cannot parse the outbound message: " + e.getMessage());
    } catch (Error e) {
      if (e instanceof VirtualMachineError) {
        throw e;
      }
      return Decoded.error("cannot parse the outbound message: " + e.getMessage());
    }
    if (!(relaxed.getInfo() instanceof InternalMessageInfoRelaxed info)) {
      return Decoded.error("only internal outbound messages are modelled");
    }
    if (!(info.getDstAddr() instanceof MsgAddressIntStd dst) || dst.getAnycast() != null) {
      return Decoded.error("destination is not a standard address");
    }
    TonAddress destination;
    try {
      destination = TonAddress.of(dst.getWorkchainId(), ExternalMessage.to32Bytes(dst.getAddress()));
    } catch (IllegalArgumentException e) {
      return Decoded.error("bad destination: " + e.getMessage());
    }
    BigInteger coins = info.getValue() == null ? BigInteger.ZERO : info.getValue().getCoins();
    if (coins.bitLength() > 62) {
      return Decoded.error("value " + coins + " exceeds any balance");
    }
    Cell body = relaxed.getBody() == null ? Cells.EMPTY : Cells.rebuilt(relaxed.getBody());
    return new Decoded(null, destination, coins.longValue(), Boolean.TRUE.equals(info.getBounce()), body,
        relaxed.getInit());
  }
}
