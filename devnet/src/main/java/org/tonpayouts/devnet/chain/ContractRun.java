package org.tonpayouts.devnet.chain;

import java.util.List;
import java.util.Objects;
import java.util.function.Supplier;
import org.tonpayouts.ton.cell.MalformedCellException;

/**
 * The compute phase of a contract devnet runs: the contract either completed (its next state and
 * action list) or threw an exit code. Gas is what the real code uses on that path (measured, see
 * the contract), so the gas fee is the real one.
 *
 * @param next the state after a completed run; {@code null} when it threw
 * @param note a short human-readable account of what the contract did, for the transaction's description
 */
public record ContractRun(int exitCode, long gasUsed, ContractState next, List<OutAction> actions, String note) {
  /** TVM's exit code for a cell underflow (reading past a cell's end, a malformed address). */
  public static final int CELL_UNDERFLOW = 9;
  /** TVM's exit code for a cell overflow (writing more than 1023 bits or 4 references). */
  public static final int CELL_OVERFLOW = 8;
  /** The gas of the compute phase exceeded the gas limit the message's value pays for. */
  public static final int OUT_OF_GAS = -14;

  public ContractRun {
    Objects.requireNonNull(note, "note");
    actions = List.copyOf(actions);
    if ((exitCode == 0 || exitCode == 1) != (next != null)) {
      throw new IllegalArgumentException("a completed run has a next state, a thrown one has none");
    }
  }

  public static ContractRun completed(ContractState next, long gasUsed, List<OutAction> actions, String note) {
    return new ContractRun(0, gasUsed, Objects.requireNonNull(next, "next"), actions, note);
  }

  public static ContractRun thrown(int exitCode, long gasUsed, String note) {
    return new ContractRun(exitCode, gasUsed, null, List.of(), note);
  }

  public boolean success() {
    return next != null;
  }

  /**
   * Runs {@code body}, turning what the TVM would throw on malformed input into its exit code: a
   * read past a cell's end (the reader's {@link MalformedCellException}) is 9, a cell written past
   * 1023 bits or 4 references (the writer's {@link IllegalArgumentException}) is 8.
   */
  public static ContractRun guarded(long gasOnError, Supplier<ContractRun> body) {
    try {
      return body.get();
    } catch (MalformedCellException e) {
      return thrown(CELL_UNDERFLOW, gasOnError, "cell underflow: " + e.getMessage());
    } catch (IllegalArgumentException e) {
      return thrown(CELL_OVERFLOW, gasOnError, "cell overflow: " + e.getMessage());
    }
  }
}
