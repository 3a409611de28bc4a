package org.tonpayouts.devnet.chain;

import java.util.List;
import org.tonpayouts.ton.cell.TonCell;

/**
 * How one devnet transaction went, phase by phase, as an ordinary transaction description
 * ({@code trans_ord$0000} in block.tlb) records it: storage (always, devnet charges no storage
 * fee), credit (internal messages), compute (the VM ran, or was skipped for an account without
 * code), action (when the compute phase succeeded), bounce (a bounceable message the account
 * could not take). The same rule as the real node decides {@link #aborted()}.
 *
 * <p>Gas figures follow devnet's flat fees ({@link Fees}) at {@link Fees#GAS_PRICE}; VM steps
 * and state hashes are stand-ins (devnet runs no VM).
 *
 * @param creditFirst the real node's {@code !bounce_enabled}: true for external and non-bounceable messages
 * @param credit nanotons the credit phase added, or {@code null} when there is no credit phase (external messages)
 * @param action {@code null} when the compute phase did not succeed (the node runs no action phase then)
 * @param bounce {@code null} when there is no bounce phase
 * @param destroyed the account was deleted (send mode +32 left it empty)
 */
record TransactionPhases(boolean creditFirst, Long credit, Compute compute, Action action, Bounce bounce,
                         boolean destroyed) {
  /** VM steps devnet reports for a WalletV4R2 external message and for a plain receive. */
  static final int WALLET_VM_STEPS = 68;
  static final int RECEIVE_VM_STEPS = 7;
  /** VM steps devnet reports for a contract it runs in Java (a stand-in: it counts no steps). */
  static final int CONTRACT_VM_STEPS = 150;
  private static final long INTERNAL_GAS_LIMIT = 1_000_000;

  /**
   * The compute phase: skipped (no code: {@code cskip_no_state}) or run by the VM.
   *
   * @param gasCredit present for external messages (the gas a contract may use before accepting)
   */
  record Compute(boolean skipped, boolean success, boolean msgStateUsed, boolean accountActivated, long gasFees,
                 long gasUsed, long gasLimit, Long gasCredit, int exitCode, int vmSteps) {
    static Compute noState() {
      return new Compute(true, false, false, false, 0, 0, 0, null, 0, 0);
    }

    static Compute vm(long gasFees, long gasLimit, Long gasCredit, boolean deploys, int steps) {
      return new Compute(false, true, deploys, deploys, gasFees, gasFees / Fees.GAS_PRICE, gasLimit, gasCredit, 0,
          steps);
    }
  }

  /**
   * The action phase.
   *
   * @param resultArg the index of the failing action, or {@code null}
   * @param fwdFees the whole forwarding fees of the messages sent ({@code total_fwd_fees})
   * @param actionFees the part of them the transaction collected ({@code total_action_fees}); devnet's
   *     flat wallet fees collect all of it, contract sends their first part ({@link NetworkPrices#firstPart})
   * @param actionListHash hash of the action list ({@code OutList}) the compute phase produced
   * @param messageCells cells of the messages created (StorageUsed of tot_msg_size)
   */
  record Action(boolean success, boolean valid, boolean noFunds, boolean deleted, long fwdFees, long actionFees,
                int resultCode, Integer resultArg, int totalActions, int skippedActions, int messagesCreated,
                byte[] actionListHash, long messageCells, long messageBits) {}

  /** The bounce phase: ok (a bounce was sent, {@code msgFees} + {@code fwdFees} taken from the value) or no funds. */
  record Bounce(boolean ok, long messageCells, long messageBits, long msgFees, long fwdFees) {}

  /** The real node's rule: aborted unless both the compute and the action phase succeeded. */
  boolean aborted() {
    return !(compute.success() && action != null && action.success());
  }

  // ---- the shapes devnet produces -------------------------------------------------------------

  /** A WalletV4R2 external message that applied: compute fee, the sends of {@code plan}. */
  static TransactionPhases walletApplied(WalletV4R2.Accepted ok, ActionPhase.Plan plan, List<TonCell> outMessages,
                                         boolean destroyed) {
    long[] size = size(outMessages);
    Action action = new Action(true, true, false, destroyed, plan.fwdFees, plan.fwdFees, 0, null, ok.actions().size(),
        plan.skipped,
        outMessages.size(), actionListHash(ok.actions()), size[0], size[1]);
    return new TransactionPhases(true, null, externalCompute(ok.deploys()), action, null, destroyed);
  }

  /** A WalletV4R2 external message whose action phase failed: compute fee charged, nothing else changed. */
  static TransactionPhases walletAborted(WalletV4R2.Accepted ok, ActionPhase.Plan plan) {
    boolean noFunds = plan.failureCode == ActionPhase.RESULT_NOT_ENOUGH_BALANCE;
    Action action = new Action(false, true, noFunds, false, 0, 0, plan.failureCode, plan.failedAt, ok.actions().size(),
        plan.skipped, 0, actionListHash(ok.actions()), 0, 0);
    return new TransactionPhases(true, null, externalCompute(ok.deploys()), action, null, false);
  }

  /** An internal message an active account took, paying {@code fee} for its compute phase. */
  static TransactionPhases received(DevnetMessage in, long fee) {
    Compute compute = Compute.vm(fee, Math.min(INTERNAL_GAS_LIMIT, in.value() / Fees.GAS_PRICE), null, false,
        RECEIVE_VM_STEPS);
    Action none = new Action(true, true, false, false, 0, 0, 0, null, 0, 0, 0, TonCell.EMPTY.hash(), 0, 0);
    return new TransactionPhases(!in.bounce(), in.value(), compute, none, null, false);
  }

  /** An internal message to an account without code, kept (non-bounceable, or too small to bounce). */
  static TransactionPhases keptWithoutCode(DevnetMessage in) {
    Bounce bounce = in.bounce() && !in.bounced()
        ? new Bounce(false, 0, 0, 0, Fees.BOUNCE_FEE) // bounce_nofunds: the value cannot pay for the bounce
        : null;
    return new TransactionPhases(!in.bounce(), in.value(), Compute.noState(), null, bounce, false);
  }

  /** A bounceable internal message to an account without code, sent back as {@code bounced}. */
  static TransactionPhases bounced(DevnetMessage in, DevnetMessage bounced) {
    long[] size = size(List.of(bounced.cell()));
    Bounce bounce = new Bounce(true, size[0], size[1], bounced.fwdFee(), 0);
    return new TransactionPhases(false, in.value(), Compute.noState(), null, bounce, false);
  }

  /**
   * An internal message to a contract devnet runs: the credit, the compute phase of the path the
   * contract took (its real gas, its exit code), then the action phase when it completed ({@code
   * null} when it threw), and the bounce when the message went back.
   */
  static TransactionPhases contract(DevnetMessage in, boolean deploys, long gasUsed, long gasLimit, int exitCode,
                                    boolean success, Action action, Bounce bounce) {
    Compute compute = new Compute(false, success, deploys && success, deploys && success,
        gasLimit == 0 ? 0 : NetworkPrices.gasFee(gasUsed), gasUsed, gasLimit, null, exitCode, CONTRACT_VM_STEPS);
    return new TransactionPhases(!in.bounce(), in.value(), compute, action, bounce, false);
  }

  /** The action phase of a contract's run; {@code created} are the message cells it sent. */
  static Action contractAction(ContractActions.Outcome outcome, List<OutAction> actions,
                               List<TonCell> created) {
    long[] size = size(created);
    boolean ok = outcome.failure == null;
    boolean noFunds = !ok && (outcome.failureCode == ContractActions.RESULT_NOT_ENOUGH_BALANCE
        || outcome.failureCode == ContractActions.RESULT_NOT_ENOUGH_VALUE);
    return new Action(ok, true, noFunds, false, ok ? outcome.fwdFees : 0, ok ? outcome.actionFees : 0,
        ok ? 0 : outcome.failureCode, outcome.failedAt, actions.size(), outcome.skipped, ok ? created.size() : 0,
        ContractActions.actionListHash(actions), size[0], size[1]);
  }

  /** A bounce a contract's transaction sent: the first part of its forwarding fee collected, the rest in the message. */
  static Bounce contractBounce(DevnetMessage bounced, long fwdFee) {
    long[] size = size(List.of(bounced.cell()));
    long collected = NetworkPrices.firstPart(fwdFee);
    return new Bounce(true, size[0], size[1], collected, fwdFee - collected);
  }

  /** A bounceable message whose value could not pay for its bounce ({@code bounce_nofunds}). */
  static Bounce noFundsBounce(long fwdFee) {
    return new Bounce(false, 0, 0, 0, fwdFee);
  }

  private static Compute externalCompute(boolean deploys) {
    return Compute.vm(Fees.COMPUTE_FEE, 0, Fees.EXTERNAL_GAS_CREDIT, deploys, WALLET_VM_STEPS);
  }

  /**
   * The hash of the action list ({@code out_list$_ prev:^(OutList n) action:OutAction}, each
   * {@code action_send_msg#0ec3c86d mode:(## 8) out_msg:^(MessageRelaxed Any)}) the wallet's
   * {@code send_raw_message} calls build, in order.
   */
  static byte[] actionListHash(List<WalletV4R2.Action> actions) {
    TonCell list = TonCell.EMPTY;
    for (WalletV4R2.Action action : actions) {
      list = TonCell.builder()
          .storeRef(list)
          .storeUint(0x0ec3c86dL, 32)
          .storeUint(action.mode(), 8)
          .storeRef(action.message())
          .endCell();
    }
    return list.hash();
  }

  /** {cells, bits} of the message trees (every cell counted once per tree). */
  private static long[] size(List<TonCell> messages) {
    long[] size = new long[2];
    for (TonCell message : messages) {
      add(message, size);
    }
    return size;
  }

  private static void add(TonCell cell, long[] size) {
    size[0]++;
    size[1] += cell.bitLength();
    for (int i = 0; i < cell.refCount(); i++) {
      add(cell.ref(i), size);
    }
  }
}
