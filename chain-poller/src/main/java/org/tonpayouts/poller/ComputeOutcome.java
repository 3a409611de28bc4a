package org.tonpayouts.poller;

import java.util.Base64;
import java.util.Optional;
import org.ton.ton4j.cell.Cell;
import org.ton.ton4j.cell.CellSlice;
import org.ton.ton4j.tlb.ActionPhase;
import org.ton.ton4j.tlb.ComputePhaseVM;
import org.ton.ton4j.tlb.Transaction;
import org.ton.ton4j.tlb.TransactionDescriptionOrdinary;
import org.tonpayouts.ton.api.ChainTransaction;

/**
 * What a contract's transaction says of its own run, read from the transaction's TL-B cell (the
 * {@code data} BOC {@code getTransactions} returns) with ton4j's parser: the compute phase's exit
 * code, the action phase's result, and whether it was aborted. A jetton wallet that throws is
 * told apart from one that acted by this, not by guessing from its messages.
 *
 * @param exitCode the compute phase's exit code; null when the compute phase was skipped (no code)
 * @param actionResultCode the action phase's result code when it failed; null when it succeeded or did not run
 * @param aborted the transaction's aborted flag: the compute or action phase failed, so its state
 *     changes were rolled back (and a bounceable inbound message bounced)
 */
record ComputeOutcome(Integer exitCode, Integer actionResultCode, boolean aborted) {

  /** The outcome of {@code tx}; empty when it carries no {@code data} or it is not an ordinary transaction ton4j reads. */
  static Optional<ComputeOutcome> of(ChainTransaction tx) {
    if (tx.data() == null || tx.data().isBlank()) {
      return Optional.empty();
    }
    try {
      Transaction parsed = Transaction.deserialize(CellSlice.beginParse(Cell.fromBoc(Base64.getDecoder()
          .decode(tx.data()))));
      if (!(parsed.getDescription() instanceof TransactionDescriptionOrdinary ordinary)) {
        return Optional.empty();
      }
      Integer exit = ordinary.getComputePhase() instanceof ComputePhaseVM vm
          ? (int) vm.getDetails().getExitCode() : null;
      ActionPhase action = ordinary.getActionPhase();
      Integer actionCode = action != null && !action.isSuccess() ? (int) action.getResultCode() : null;
      return Optional.of(new ComputeOutcome(exit, actionCode, Boolean.TRUE.equals(ordinary.isAborted())));
    } catch (RuntimeException e) {
      return Optional.empty(); // not a transaction cell ton4j reads: the messages decide
    } catch (VirtualMachineError | LinkageError e) {
      throw e;
    } catch (Error e) {
      return Optional.empty(); // ton4j throws a bare Error on a malformed BOC: an API's answer must not stop the poller
    }
  }

  /** True when the contract refused the message: it threw, or its actions failed (either aborts the transaction). */
  boolean refused() {
    return aborted || exitCode != null && exitCode != 0 && exitCode != 1;
  }

  /** The refusal in words, for a verdict's reason: the exit code and its meaning, or what else failed. */
  String describeRefusal() {
    if (exitCode != null && exitCode != 0 && exitCode != 1) {
      return JettonExitCodes.describe(exitCode);
    }
    if (actionResultCode != null) {
      return "action phase result code " + actionResultCode + " (its messages could not be sent)";
    }
    return exitCode == null ? JettonExitCodes.describe(null) : "aborted";
  }

  /** The code that names the refusal: the compute phase's when it threw, else the action phase's; null when neither. */
  Integer refusalCode() {
    if (exitCode != null && exitCode != 0 && exitCode != 1) {
      return exitCode;
    }
    return actionResultCode;
  }
}
