package org.tonpayouts.local.audit;

import java.math.BigInteger;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import org.tonpayouts.schemas.SettlementStatus;
import org.tonpayouts.ton.address.TonAddress;

/**
 * What the {@link ChainAuditor} found: the figures of a run, read from devnet's chain, the ledger
 * and the topics, and every broken rule. A run passed only with no violation at all.
 *
 * @param transfersRequested transfers of accepted requests: each must end with one terminal settlement
 * @param settlements transfers by the status of their terminal settlement
 * @param landed requested transfers found paid on chain
 * @param doublePayouts requested transfers paid more than once
 * @param lostTransfers requested transfers without any terminal settlement
 * @param reconciliations RECONCILIATION_REQUIRED transfers with their reason, and whether the chain shows them paid
 * @param foreignAttempts foreign payments the chaos attempted
 * @param foreignLandings foreign payments found on chain, each exactly as the foreign signer recorded
 *     it (not ours: counted apart, never a violation)
 * @param fencedRefusals intents the ledger refused to a task that no longer held its partition
 * @param chainTransactions wallet transactions read from the chain
 * @param appliedMessages external messages applied to the wallets (each used one seqno)
 * @param ledgerMessages ledger messages (ton_transactions) by status
 * @param reusedIds requestIds reused with other content
 * @param reusedIdsRejected of those, rejected on payout.rejected
 * @param violations every broken rule, in the order found
 * @param jettons the jetton transfers' figures, read from the jetton wallets on chain
 */
public record ChainAudit(int transfersRequested, Map<SettlementStatus, Integer> settlements, int landed,
                         int doublePayouts, int lostTransfers, List<Reconciliation> reconciliations,
                         int foreignAttempts, List<ForeignLanding> foreignLandings, int fencedRefusals,
                         int chainTransactions,
                         int appliedMessages, Map<String, Integer> ledgerMessages, int reusedIds,
                         int reusedIdsRejected, List<Violation> violations, JettonFigures jettons) {

  /**
   * What the jetton transfers came to, on chain: the balances of the jetton wallets, read through
   * the API ({@code get_wallet_data}) after the run.
   *
   * @param transfers jetton transfers of accepted requests
   * @param settlements those by the status of their terminal settlement
   * @param handedOver those whose wallet message applied (handed to our jetton wallet)
   * @param delivered SETTLED ones whose settlement shows the receiver's jetton wallet accepting them
   * @param refusedBack FAILED ones that were handed over and refused by a jetton wallet (the
   *     payers' balances show the jettons came back)
   * @param settledUnits jetton base units of the SETTLED ones
   * @param destinations jetton owners paid to
   * @param destinationsBalance their jetton balances on chain beyond what they held before, summed
   *     (= {@code settledUnits} when nothing is wrong)
   * @param minted what was minted to the paying wallets, summed
   * @param payersBalance the paying wallets' jetton balances on chain, summed (= minted - settledUnits)
   */
  public record JettonFigures(int transfers, Map<SettlementStatus, Integer> settlements, int handedOver,
                              int delivered, int refusedBack, BigInteger settledUnits, int destinations,
                              BigInteger destinationsBalance, BigInteger minted, BigInteger payersBalance) {
    public static final JettonFigures NONE = new JettonFigures(0, Map.of(), 0, 0, 0, BigInteger.ZERO, 0,
        BigInteger.ZERO, BigInteger.ZERO, BigInteger.ZERO);

    public JettonFigures {
      Map<SettlementStatus, Integer> byStatus = new EnumMap<>(SettlementStatus.class);
      byStatus.putAll(settlements);
      settlements = java.util.Collections.unmodifiableMap(byStatus);
    }

    public int count(SettlementStatus status) {
      return settlements.getOrDefault(status, 0);
    }
  }

  /** The rules the auditor checks. */
  public enum Rule {
    /** A requested transfer landed on chain more than once. */
    DOUBLE_PAYOUT,
    /** A requested transfer has no terminal settlement. */
    LOST_TRANSFER,
    /** A requested transfer has more than one terminal settlement. */
    DUPLICATE_SETTLEMENT,
    /** A settlement describes other content than the transfer requested (destination, amount). */
    SETTLEMENT_NOT_AS_REQUESTED,
    /** A SETTLED transfer is not on chain as exactly one payment with its transaction hash and lt. */
    SETTLED_NOT_ON_CHAIN,
    /** A payment with a transfer's comment went elsewhere, from another wallet, or with another amount. */
    PAID_NOT_AS_REQUESTED,
    /** A transfer settled FAILED or ABORTED landed on chain. */
    PAID_BUT_REPORTED_UNPAID,
    /** A leg landed before an earlier leg of its request, or without it. */
    LEG_OUT_OF_ORDER,
    /** A wallet's applied seqnos are not 0, 1, 2, ... or do not end at its seqno. */
    SEQNO_GAP,
    /** A CONFIRMED ledger message does not match its chain transaction, or an EXPIRED one applied. */
    LEDGER_NOT_CHAIN,
    /** A message signed with our key applied on chain without being in the ledger. */
    SIGNED_OUTSIDE_LEDGER,
    /** A payment nobody asked for (not a requested transfer, not a foreign signer's). */
    UNREQUESTED_PAYMENT,
    /** A settlement for a transfer nobody requested. */
    UNEXPECTED_SETTLEMENT,
    /** A requestId reused with other content was not rejected. */
    REUSED_ID_NOT_REJECTED,
    /** A message whose intent was refused by fencing landed, and no ledger row (the new owner's) holds it. */
    FENCED_MESSAGE_USED,
    /** A SETTLED jetton transfer's settlement does not show the receiver's jetton wallet accepting its query id. */
    JETTON_NOT_DELIVERED,
    /** A jetton owner's balance on chain is not the sum of the SETTLED jetton transfers to it. */
    JETTON_BALANCE_NOT_AS_SETTLED,
    /**
     * A paying wallet's jetton balance is not what was minted to it minus its SETTLED jetton
     * transfers: a FAILED one was not re-credited, or jettons left that no settlement accounts for.
     */
    JETTON_PAYER_BALANCE_WRONG
  }

  /** One broken rule. */
  public record Violation(Rule rule, String detail) {
    @Override
    public String toString() {
      return rule + ": " + detail;
    }
  }

  /**
   * A foreign signer's payment found on chain, and whose seqno it took.
   *
   * @param seqno the wallet seqno its message used
   * @param repeatedPayee whether the wallet's requested transfers pay this destination one amount
   *     in two or more requests (a repeated payee)
   * @param sameAmount whether that amount is this payment's
   * @param seqnoOf the transfer of ours the ledger binds to that seqno (its seqno was taken), or null
   * @param seqnoOfStatus that transfer's terminal settlement; null without one
   */
  public record ForeignLanding(long subwalletId, long seqno, TonAddress destination, long amountNano, String comment,
                               String txHash, boolean repeatedPayee, boolean sameAmount, TransferRef seqnoOf,
                               SettlementStatus seqnoOfStatus) {}

  /** A transfer that needs an operator, with the pipeline's reason and the chain's answer. */
  public record Reconciliation(TransferRef ref, long subwalletId, String reason, boolean paidOnChain) {}

  public ChainAudit {
    Map<SettlementStatus, Integer> byStatus = new EnumMap<>(SettlementStatus.class);
    byStatus.putAll(settlements);
    settlements = java.util.Collections.unmodifiableMap(byStatus);
    reconciliations = List.copyOf(reconciliations);
    foreignLandings = List.copyOf(foreignLandings);
    ledgerMessages = Map.copyOf(ledgerMessages);
    violations = List.copyOf(violations);
    jettons = jettons == null ? JettonFigures.NONE : jettons;
  }

  /** Foreign payments found on chain. */
  public int foreignLanded() {
    return foreignLandings.size();
  }

  public int count(SettlementStatus status) {
    return settlements.getOrDefault(status, 0);
  }

  public long violations(Rule rule) {
    return violations.stream().filter(v -> v.rule() == rule).count();
  }
}
