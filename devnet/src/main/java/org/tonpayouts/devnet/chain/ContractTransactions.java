package org.tonpayouts.devnet.chain;

import java.util.ArrayList;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.tonpayouts.ton.cell.TonCell;

/**
 * Runs one internal message on an account holding a contract devnet runs, as the node runs an
 * ordinary transaction: credit (the value is in {@code my_balance}), compute (the contract's Java
 * model; the gas fee of the path it took), then either the action phase of a completed run, or
 * the bounce phase of a bounceable message the contract threw on: the message goes back with
 * {@code bounced} set, body {@code 0xFFFFFFFF} + its first 256 bits, its value less the gas fee
 * and the bounce's forwarding fee, and the contract's state stays as it was.
 *
 * <p>An action phase that fails rolls the state back; it bounces the message when the failing
 * action had +16, and otherwise leaves an aborted transaction that keeps the value (as the real
 * chain does: no bounce without +16). A message with a StateInit for code devnet runs deploys the
 * contract ({@code deploying}); a failed run leaves the account without code, its value kept or bounced.
 * Guarded by the {@link Chain}'s lock.
 */
final class ContractTransactions {
  private static final Logger log = LoggerFactory.getLogger(Chain.class);

  private final TransactionRecorder recorder;
  private final ChainCounters counters;

  ContractTransactions(TransactionRecorder recorder, ChainCounters counters) {
    this.recorder = recorder;
    this.counters = counters;
  }

  /**
   * Runs {@code msg} on {@code account} (whose contract is {@code deploying} when the message
   * deploys it) and records the transaction; returns the messages it sent, bounce included.
   */
  List<DevnetMessage> deliver(BlockBuild build, Account account, DevnetMessage msg, ContractState deploying) {
    AccountState orig = account.state;
    ContractState state = deploying != null ? deploying : account.contract;
    long txLt = recorder.nextLt();
    long credited = account.balance + msg.value();
    InternalCall call = new InternalCall(account.address, credited, msg.source(), msg.value(), msg.bounce(),
        msg.bounced(), msg.fwdFee(), msg.body(), build.utime);
    long gasLimit = Math.min(NetworkPrices.gasFor(credited), NetworkPrices.gasFor(msg.value()));
    ContractRun run = state.receive(call);
    if (run.gasUsed() > gasLimit) {
      run = ContractRun.thrown(ContractRun.OUT_OF_GAS, gasLimit, "out of gas: the path takes " + run.gasUsed()
          + " gas, the message's value pays for " + gasLimit);
    }
    // a value that buys no gas at all runs no code on chain (compute skipped, no fee): devnet records
    // an out-of-gas run that cost nothing
    long gasFee = gasLimit == 0 ? 0 : Math.min(NetworkPrices.gasFee(run.gasUsed()), credited);
    long afterGas = credited - gasFee;
    long inboundLeft = msg.value() - gasFee;
    String what = state.kind() + ": " + run.note();

    if (!run.success()) {
      counters.contractsThrown++;
      TransactionPhases.Bounce bouncePhase = null;
      List<DevnetMessage> outs = List.of();
      long fees = gasFee;
      long balance = afterGas;
      if (msg.bounce() && !msg.bounced()) {
        Bounced bounced = bounce(build, account, msg, inboundLeft);
        if (bounced.message != null) {
          outs = List.of(bounced.message);
          balance -= bounced.message.value() + bounced.fwdFee;
          fees += NetworkPrices.firstPart(bounced.fwdFee);
        }
        bouncePhase = bounced.phase;
      }
      settleWithoutDeploy(account, balance);
      TransactionPhases phases = TransactionPhases.contract(msg, deploying != null, run.gasUsed(), gasLimit,
          run.exitCode(), false, null, bouncePhase);
      recorder.record(build, account, orig, txLt, msg, outs, fees, phases,
          what + "; exit code " + run.exitCode() + (outs.isEmpty() ? "" : "; bounced"));
      log.debug("contract threw account={} kind={} exitcode={} bounced={} note={}", account.address, state.kind(),
          run.exitCode(), !outs.isEmpty(), run.note());
      return outs;
    }

    ContractActions.Outcome actions = ContractActions.run(run.actions(), afterGas, inboundLeft);
    if (actions.failure != null) {
      counters.contractsThrown++;
      TransactionPhases.Action actionPhase = TransactionPhases.contractAction(actions, run.actions(), List.of());
      TransactionPhases.Bounce bouncePhase = null;
      List<DevnetMessage> outs = List.of();
      long fees = gasFee;
      long balance = afterGas;
      if (actions.bounceOnFailure && msg.bounce() && !msg.bounced()) {
        Bounced bounced = bounce(build, account, msg, inboundLeft);
        if (bounced.message != null) {
          outs = List.of(bounced.message);
          balance -= bounced.message.value() + bounced.fwdFee;
          fees += NetworkPrices.firstPart(bounced.fwdFee);
        }
        bouncePhase = bounced.phase;
      }
      settleWithoutDeploy(account, balance);
      TransactionPhases phases = TransactionPhases.contract(msg, deploying != null, run.gasUsed(), gasLimit, 0, true,
          actionPhase, bouncePhase);
      recorder.record(build, account, orig, txLt, msg, outs, fees, phases,
          what + "; " + actions.failure + (outs.isEmpty() ? "; state rolled back" : "; state rolled back, bounced"));
      log.info("contract action phase failed account={} kind={} reason={}", account.address, state.kind(),
          actions.failure);
      return outs;
    }

    List<DevnetMessage> outs = new ArrayList<>();
    List<TonCell> cells = new ArrayList<>();
    for (ContractActions.Sent sent : actions.sends) {
      long fwdRemaining = sent.fwdFee() - NetworkPrices.firstPart(sent.fwdFee());
      DevnetMessage out = ChainMessages.sent(account.address, sent.message(), sent.value(), fwdRemaining,
          recorder.nextLt(), build.utime);
      outs.add(out);
      cells.add(out.cell());
    }
    account.contract = run.next();
    account.state = AccountState.ACTIVE;
    account.balance = actions.remaining;
    TransactionPhases phases = TransactionPhases.contract(msg, deploying != null, run.gasUsed(), gasLimit,
        run.exitCode(), true, TransactionPhases.contractAction(actions, run.actions(), cells), null);
    recorder.record(build, account, orig, txLt, msg, outs, gasFee + actions.actionFees, phases,
        (deploying != null ? "deployed " : "") + what + "; sent " + outs.size()
            + (actions.skipped > 0 ? "; skipped " + actions.skipped + " action(s) with +2" : ""));
    counters.contractsRan++;
    return outs;
  }

  /** The account keeps its old contract (or none): a failed run deploys nothing. */
  private static void settleWithoutDeploy(Account account, long balance) {
    account.balance = balance;
    if (account.state == AccountState.NONEXISTENT && balance > 0) {
      account.state = AccountState.UNINITIALIZED;
    }
  }

  /** A bounce, or why there is none: the message's value after the gas fee must pay the bounce's forwarding fee. */
  private record Bounced(DevnetMessage message, long fwdFee, TransactionPhases.Bounce phase) {}

  private Bounced bounce(BlockBuild build, Account account, DevnetMessage msg, long inboundLeft) {
    TonCell body = ChainMessages.bouncedBody(msg.body());
    OutMessage back = OutMessage.bodyInline(false, msg.source(), 0, body);
    long fwd = NetworkPrices.forwardFee(back.relaxedCell());
    if (inboundLeft < fwd) {
      return new Bounced(null, fwd, TransactionPhases.noFundsBounce(fwd));
    }
    long fwdRemaining = fwd - NetworkPrices.firstPart(fwd);
    DevnetMessage bounced = ChainMessages.internal(account.address, msg.source(), inboundLeft - fwd, false, true,
        fwdRemaining, recorder.nextLt(), build.utime, body, null);
    return new Bounced(bounced, fwd, TransactionPhases.contractBounce(bounced, fwd));
  }
}
