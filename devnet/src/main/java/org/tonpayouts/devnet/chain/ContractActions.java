package org.tonpayouts.devnet.chain;

import java.util.ArrayList;
import java.util.List;
import org.tonpayouts.ton.cell.TonCell;

/**
 * The action phase of a contract transaction: its {@code send_raw_message} and {@code raw_reserve}
 * actions in order, on the balance left after the gas fee, computed without side effects (the
 * caller commits a successful outcome, or bounces or aborts a failed one).
 *
 * <p>Send modes as the node applies them: +1 pays the forwarding fee from the balance (else it
 * comes out of the value), +2 skips a send that fails, +16 bounces the inbound message when the
 * action fails, 64 adds what is left of the inbound value after the gas fee, 128 carries the whole
 * balance not reserved. Reserve modes: 0 exactly (fails when the balance is short), +2 at most
 * what is left. Every forwarding fee is the network's ({@link NetworkPrices}); its first part is
 * the transaction's action fee, the rest travels in the message's {@code fwd_fee}.
 */
final class ContractActions {
  static final int MODE_PAY_FEES_SEPARATELY = 1;
  static final int MODE_IGNORE_ERRORS = 2;
  static final int MODE_BOUNCE_ON_ACTION_FAIL = 16;
  static final int MODE_CARRY_INBOUND_VALUE = 64;
  static final int MODE_CARRY_ALL_BALANCE = 128;
  static final int RESERVE_AT_MOST = 2;
  /** Action phase result codes of the real node. */
  static final int RESULT_INVALID_ACTION = 34;
  static final int RESULT_NOT_ENOUGH_BALANCE = 37;
  static final int RESULT_NOT_ENOUGH_VALUE = 40;

  /** A message the phase sends: its value after fees and its whole forwarding fee. */
  record Sent(OutMessage message, long value, long fwdFee) {}

  /** What the actions did, or where they failed ({@link #failure} set). */
  static final class Outcome {
    final List<Sent> sends = new ArrayList<>();
    long remaining;
    long fwdFees;
    long actionFees;
    int skipped;
    String failure;
    Integer failedAt;
    int failureCode;
    boolean bounceOnFailure;
  }

  private ContractActions() {}

  /**
   * Runs {@code actions} on {@code balance} nanotons; {@code inboundLeft} is what mode 64 adds (the
   * inbound value less the gas fee).
   */
  static Outcome run(List<OutAction> actions, long balance, long inboundLeft) {
    Outcome out = new Outcome();
    long remaining = balance;
    long reserved = 0;
    long inbound = Math.max(0, inboundLeft);
    for (int i = 0; i < actions.size(); i++) {
      OutAction action = actions.get(i);
      int mode;
      String error = null;
      int code = RESULT_NOT_ENOUGH_BALANCE;
      if (action instanceof OutAction.Reserve reserve) {
        mode = reserve.mode();
        long amount = reserve.amount();
        if ((mode & ~(RESERVE_AT_MOST | MODE_BOUNCE_ON_ACTION_FAIL)) != 0 || amount < 0) {
          code = RESULT_INVALID_ACTION;
          error = "reserve mode " + mode + " is not modelled";
        } else if ((mode & RESERVE_AT_MOST) != 0) {
          amount = Math.min(amount, remaining);
        } else if (amount > remaining) {
          error = "cannot reserve " + amount + ", " + remaining + " left";
        }
        if (error == null) {
          remaining -= amount;
          reserved += amount;
          continue;
        }
      } else {
        OutAction.Send send = (OutAction.Send) action;
        mode = send.mode();
        OutMessage message = send.message();
        long fwd = NetworkPrices.forwardFee(message.relaxedCell());
        long value = message.value();
        boolean all = (mode & MODE_CARRY_ALL_BALANCE) != 0;
        if (all) {
          value = remaining;
        } else if ((mode & MODE_CARRY_INBOUND_VALUE) != 0) {
          value += inbound;
        }
        long debit;
        if ((mode & MODE_PAY_FEES_SEPARATELY) != 0 && !all) {
          debit = value + fwd;
        } else if (value < fwd) {
          code = RESULT_NOT_ENOUGH_VALUE;
          error = "value " + value + " cannot pay the forwarding fee " + fwd;
          debit = 0;
        } else {
          debit = value;
          value -= fwd;
        }
        if (error == null && debit > remaining) {
          error = "not enough TON: " + remaining + " left, " + debit + " needed";
        }
        if (error == null) {
          remaining -= debit;
          if ((mode & MODE_CARRY_INBOUND_VALUE) != 0) {
            inbound = 0;
          }
          out.sends.add(new Sent(message, value, fwd));
          out.fwdFees += fwd;
          out.actionFees += NetworkPrices.firstPart(fwd);
          continue;
        }
      }
      if ((mode & MODE_IGNORE_ERRORS) != 0) {
        out.skipped++;
        continue;
      }
      out.failure = "action #" + i + " (mode " + mode + ") failed: result_code=" + code + " (" + error + ")";
      out.failedAt = i;
      out.failureCode = code;
      out.bounceOnFailure = (mode & MODE_BOUNCE_ON_ACTION_FAIL) != 0;
      return out;
    }
    out.remaining = remaining + reserved;
    return out;
  }

  /**
   * The hash of the action list ({@code out_list$_ prev:^(OutList n) action:OutAction}):
   * {@code action_send_msg#0ec3c86d mode:(## 8) out_msg:^(MessageRelaxed Any)},
   * {@code action_reserve_currency#36e6b809 mode:(## 8) currency:CurrencyCollection}.
   */
  static byte[] actionListHash(List<OutAction> actions) {
    TonCell list = TonCell.EMPTY;
    for (OutAction action : actions) {
      if (action instanceof OutAction.Send send) {
        list = TonCell.builder().storeRef(list).storeUint(0x0ec3c86dL, 32).storeUint(send.mode(), 8)
            .storeRef(send.message().relaxedCell()).endCell();
      } else {
        OutAction.Reserve reserve = (OutAction.Reserve) action;
        list = TonCell.builder().storeRef(list).storeUint(0x36e6b809L, 32).storeUint(reserve.mode(), 8)
            .storeCoins(Math.max(0, reserve.amount())).storeBit(false).endCell();
      }
    }
    return list.hash();
  }
}
