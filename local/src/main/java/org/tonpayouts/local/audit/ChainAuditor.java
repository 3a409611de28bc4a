package org.tonpayouts.local.audit;

import java.math.BigInteger;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.stream.Collectors;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.tonpayouts.local.audit.ChainAudit.ForeignLanding;
import org.tonpayouts.local.audit.ChainAudit.Reconciliation;
import org.tonpayouts.local.audit.ChainAudit.Rule;
import org.tonpayouts.local.audit.ChainAudit.Violation;
import org.tonpayouts.local.audit.ChainScan.Payment;
import org.tonpayouts.local.audit.ChainScan.Tx;
import org.tonpayouts.local.audit.ChainScan.WalletHistory;
import org.tonpayouts.schemas.Rejected;
import org.tonpayouts.schemas.Settlement;
import org.tonpayouts.schemas.SettlementStatus;
import org.tonpayouts.schemas.Topics;
import org.tonpayouts.ton.address.TonAddress;
import org.tonpayouts.ton.api.JettonWalletData;
import org.tonpayouts.ton.api.TonApi;

/**
 * Judges a run from the chain's side: reads every wallet's history from the TON HTTP API (not our
 * topics), the ledger, {@code payout.settlements} and {@code payout.rejected}, and checks that no
 * transfer landed twice; every requested transfer has exactly one terminal settlement; every
 * SETTLED transfer landed exactly as requested (destination, amount, comment); legs of a request
 * landed in order and none after a leg that did not; each wallet's applied seqnos are consecutive;
 * every CONFIRMED ledger message is its chain transaction; nothing was paid that nobody asked for
 * (a foreign signer's payments are counted apart, each only if it is exactly a payment the signer
 * recorded: wallet, destination, amount and its own comment, even to a payee of ours, once); no
 * message refused by fencing was recorded or landed; every requestId reused with other content
 * was rejected. A jetton transfer lands as its wallet's message to the wallet's own jetton wallet
 * (found by the comment in its TEP-74 body's forward payload); SETTLED needs the receiver's jetton
 * wallet's acceptance in its settlement, and the jetton balances read on chain must be exactly
 * what the SETTLED jetton transfers say: each owner's their sum, each payer's what was minted
 * minus theirs (a FAILED one re-credited).
 *
 * <p>A transfer whose seqno a foreign payment took can never land (all its messages carry that
 * seqno): the foreign payment is not its landing, even when it pays the transfer's destination
 * its amount, so a SETTLED settlement of it is SETTLED_NOT_ON_CHAIN.
 */
public final class ChainAuditor {
  private static final Logger log = LoggerFactory.getLogger(ChainAuditor.class);
  private static final Duration TOPIC_READ_TIMEOUT = Duration.ofSeconds(120);
  /** Violations of one rule listed in full; the rest are counted. */
  private static final int DETAILS_PER_RULE = 20;

  /**
   * Where the auditor reads.
   *
   * @param wallets the paying wallets' addresses by subwallet id: whose histories it reads
   * @param ourPublicKey the wallets' public key: tells our signatures from others'
   */
  public record Sources(TonApi api, LedgerRecords ledger, String bootstrapServers, Map<Long, TonAddress> wallets,
                        byte[] ourPublicKey) {}

  /**
   * What the auditor is told rather than reads: what the run asked for, and what others paid.
   *
   * @param transfers every transfer of every accepted request: each must end with exactly one
   *     terminal settlement, and land at most once, as requested
   * @param reusedIds request ids produced again with other content: each must be rejected, never paid
   * @param foreign payments someone else holding the key made or tried: each may account for one
   *     payment on chain, exactly as recorded
   * @param jettons the jettons minted to every paying wallet before the run: with the SETTLED
   *     jetton transfers, what every jetton balance must be
   */
  public record Expectations(List<ExpectedTransfer> transfers, List<ReusedRequestId> reusedIds,
                             List<ForeignPayment> foreign, List<JettonFunding> jettons) {
    public Expectations {
      transfers = List.copyOf(transfers);
      reusedIds = List.copyOf(reusedIds);
      foreign = List.copyOf(foreign);
      jettons = List.copyOf(jettons);
    }

    /** A run without jettons. */
    public Expectations(List<ExpectedTransfer> transfers, List<ReusedRequestId> reusedIds,
        List<ForeignPayment> foreign) {
      this(transfers, reusedIds, foreign, List.of());
    }
  }

  /**
   * A jetton every paying wallet was minted before the run, and how much: its only jetton income,
   * so its balance after the run is that minus its SETTLED transfers of the jetton.
   *
   * @param ownersHeldBefore jetton owners of the run that held some before it (minted to deploy
   *     their jetton wallet); every other owner held none
   */
  public record JettonFunding(TonAddress master, BigInteger mintedPerWallet,
                              Map<TonAddress, BigInteger> ownersHeldBefore) {
    public JettonFunding {
      ownersHeldBefore = Map.copyOf(ownersHeldBefore);
    }

    public JettonFunding(TonAddress master, BigInteger mintedPerWallet) {
      this(master, mintedPerWallet, Map.of());
    }
  }

  private final Sources sources;
  private final Expectations expectations;
  private final List<Violation> violations = new ArrayList<>();
  private final Map<Rule, Integer> perRule = new EnumMap<>(Rule.class);
  /** Our wallets' jetton wallets, by master and subwallet id, asked of the master once each. */
  private final Map<String, TonAddress> ourJettonWallets = new HashMap<>();

  private ChainAuditor(Sources sources, Expectations expectations) {
    this.sources = sources;
    this.expectations = expectations;
  }

  /** Reads everything and checks every rule. */
  public static ChainAudit audit(Sources sources, Expectations expectations) {
    return new ChainAuditor(sources, expectations).run();
  }

  private ChainAudit run() {
    Map<Long, WalletHistory> chain = ChainScan.scan(sources.api(), sources.wallets(), sources.ourPublicKey());
    List<LedgerRecords.Message> messages = sources.ledger().messages();
    List<LedgerRecords.Transfer> transfers = sources.ledger().transfers();
    List<LedgerRecords.Fenced> fenced = sources.ledger().fencedRefusals();
    List<Settlement> settlements = TopicSnapshot.read(sources.bootstrapServers(), Topics.PAYOUT_SETTLEMENTS,
        TOPIC_READ_TIMEOUT);
    List<Rejected> rejected = TopicSnapshot.read(sources.bootstrapServers(), Topics.PAYOUT_REJECTED,
        TOPIC_READ_TIMEOUT);

    Map<TransferRef, ExpectedTransfer> expected = new HashMap<>();
    Map<String, ExpectedTransfer> byComment = new HashMap<>();
    for (ExpectedTransfer e : expectations.transfers()) {
      expected.put(e.ref(), e);
      byComment.put(e.comment(), e);
    }

    // every payment of every wallet: a requested transfer, a foreign signer's, or nobody's
    Map<TransferRef, List<Payment>> landings = new HashMap<>();
    List<ForeignPayment> foreignLeft = new ArrayList<>(expectations.foreign());
    List<ForeignFound> foreignFound = new ArrayList<>();
    for (WalletHistory history : chain.values()) {
      for (Tx tx : history.transactions()) {
        if (tx.aborted()) {
          continue;
        }
        for (Payment p : tx.payments()) {
          ExpectedTransfer e = p.comment() == null ? null : byComment.get(p.comment());
          if (e == null && takeAttempt(foreignLeft, p)) {
            foreignFound.add(new ForeignFound(history.subwalletId(), tx, p));
          } else if (e == null) {
            violation(Rule.UNREQUESTED_PAYMENT, "subwallet " + history.subwalletId() + " paid " + p.amountNano()
                + " to " + p.destination() + " comment '" + p.comment() + "' in tx " + p.txHash());
          } else if (e.paysJetton()) {
            String wrong = jettonPaymentMismatch(e, history.subwalletId(), p);
            if (wrong != null) {
              violation(Rule.PAID_NOT_AS_REQUESTED, e.ref() + " asked subwallet " + e.subwalletId() + " to pay "
                  + e.jetton().amount() + " of jetton " + e.jetton().master() + " to " + e.destination() + "; tx "
                  + p.txHash() + " of subwallet " + history.subwalletId() + " " + wrong);
            } else {
              landings.computeIfAbsent(e.ref(), r -> new ArrayList<>()).add(p);
            }
          } else if (e.subwalletId() != history.subwalletId() || !e.destination().equals(p.destination())
              || e.amountNano() != p.amountNano() || p.jetton() != null) {
            violation(Rule.PAID_NOT_AS_REQUESTED, e.ref() + " asked subwallet " + e.subwalletId() + " to pay "
                + e.amountNano() + " to " + e.destination() + "; tx " + p.txHash() + " of subwallet "
                + history.subwalletId() + " paid " + p.amountNano() + " to " + p.destination());
          } else {
            landings.computeIfAbsent(e.ref(), r -> new ArrayList<>()).add(p);
          }
        }
      }
    }
    int doublePayouts = 0;
    for (Map.Entry<TransferRef, List<Payment>> l : landings.entrySet()) {
      if (l.getValue().size() > 1) {
        doublePayouts++;
        violation(Rule.DOUBLE_PAYOUT, l.getKey() + " landed " + l.getValue().size() + " times: txs "
            + l.getValue().stream().map(Payment::txHash).toList());
      }
    }

    // settlements: exactly one terminal one per requested transfer, telling the chain's truth
    Map<TransferRef, List<Settlement>> terminal = new HashMap<>();
    for (Settlement s : settlements) {
      if (s.status() != SettlementStatus.BOUNCED && s.resolution() == null) {
        terminal.computeIfAbsent(new TransferRef(s.requestId(), s.transferId()), r -> new ArrayList<>()).add(s);
      }
    }
    Map<SettlementStatus, Integer> byStatus = new EnumMap<>(SettlementStatus.class);
    List<Reconciliation> reconciliations = new ArrayList<>();
    int lost = 0;
    for (ExpectedTransfer e : expectations.transfers()) {
      List<Settlement> seen = terminal.getOrDefault(e.ref(), List.of());
      List<Payment> paid = landings.getOrDefault(e.ref(), List.of());
      if (seen.isEmpty()) {
        lost++;
        violation(Rule.LOST_TRANSFER, e.ref() + " of subwallet " + e.subwalletId() + " has no settlement"
            + (paid.isEmpty() ? "" : " (it is paid on chain, tx " + paid.get(0).txHash() + ")"));
        continue;
      }
      if (seen.size() > 1) {
        violation(Rule.DUPLICATE_SETTLEMENT, e.ref() + " has " + seen.size() + " terminal settlements: "
            + seen.stream().map(s -> s.status().toString()).toList());
      }
      Settlement s = seen.get(0);
      byStatus.merge(s.status(), 1, Integer::sum);
      if ((e.paysJetton() ? !sameJetton(e, s) : s.amountNano() != e.amountNano() || s.jetton() != null)
          || !TonAddress.parse(s.destination()).equals(e.destination()) || s.subwalletId() != e.subwalletId()) {
        violation(Rule.SETTLEMENT_NOT_AS_REQUESTED, e.ref() + " settled as " + (s.jetton() != null ? s.jetton()
            : s.amountNano()) + " to " + s.destination() + " from subwallet " + s.subwalletId() + "; requested "
            + (e.paysJetton() ? e.jetton() : e.amountNano()) + " to " + e.destination() + " from " + e.subwalletId());
      }
      switch (s.status()) {
        case SETTLED -> {
          if (paid.size() != 1 || !paid.get(0).txHash().equals(s.txHash()) || s.lt() == null
              || paid.get(0).lt() != s.lt()) {
            violation(Rule.SETTLED_NOT_ON_CHAIN, e.ref() + " SETTLED by tx " + s.txHash() + " lt " + s.lt()
                + "; the chain shows " + paid.stream().map(p -> p.txHash() + " lt " + p.lt()).toList());
          } else if (e.paysJetton() && (s.jettonDelivery() == null || !s.jettonDelivery().delivered()
              || s.jettonDelivery().queryId() != paid.get(0).jetton().queryId())) {
            violation(Rule.JETTON_NOT_DELIVERED, e.ref() + " SETTLED, but its delivery " + s.jettonDelivery()
                + " is not the receiver's jetton wallet accepting query id " + paid.get(0).jetton().queryId());
          }
        }
        case FAILED, ABORTED -> {
          boolean refusedOnChain = s.status() == SettlementStatus.FAILED && e.paysJetton()
              && s.jettonDelivery() != null && !s.jettonDelivery().delivered()
              && s.jettonDelivery().failedAccount() != null;
          // a jetton transfer's wallet message only hands it over: a jetton wallet may refuse it after (the
          // balances below show the jettons came back)
          if (!paid.isEmpty() && !refusedOnChain) {
            violation(Rule.PAID_BUT_REPORTED_UNPAID, e.ref() + " settled " + s.status() + " (" + s.reason()
                + ") but tx " + paid.get(0).txHash() + " paid it");
          }
        }
        case RECONCILIATION_REQUIRED -> reconciliations.add(new Reconciliation(e.ref(), e.subwalletId(), s.reason(),
            !paid.isEmpty()));
        default -> { }
      }
    }
    List<ForeignLanding> foreignLandings = foreignLandings(foreignFound, transfers, terminal);
    for (TransferRef ref : terminal.keySet()) {
      if (!expected.containsKey(ref)) {
        violation(Rule.UNEXPECTED_SETTLEMENT, ref + " was settled (" + terminal.get(ref).get(0).status()
            + ") but never requested");
      }
    }

    ChainAudit.JettonFigures jettons = checkJettons(landings, terminal);
    checkLegOrder(landings);
    int applied = checkSeqnos(chain);
    checkLedgerAgainstChain(chain, messages, transfers, landings, fenced);
    int reusedRejected = checkReusedIds(rejected);

    Map<String, Integer> ledgerByStatus = new TreeMap<>();
    messages.forEach(m -> ledgerByStatus.merge(m.status(), 1, Integer::sum));
    int chainTxs = chain.values().stream().mapToInt(h -> h.transactions().size()).sum();
    perRule.forEach((rule, n) -> {
      if (n > DETAILS_PER_RULE) {
        violations.add(new Violation(rule, "... and " + (n - DETAILS_PER_RULE) + " more of this kind"));
      }
    });
    reconciliations.sort(Comparator.comparing(r -> r.ref().requestId()));
    ChainAudit audit = new ChainAudit(expectations.transfers().size(), byStatus, landings.size(), doublePayouts, lost,
        reconciliations, expectations.foreign().size(), foreignLandings, fenced.size(), chainTxs, applied, ledgerByStatus,
        expectations.reusedIds().size(), reusedRejected, violations, jettons);
    log.info("chain audit transfers={} landed={} double={} lost={} violations={}", audit.transfersRequested(),
        audit.landed(), doublePayouts, lost, perRule);
    return audit;
  }

  /** A foreign signer's payment found on chain, in the transaction of {@code subwalletId} that made it. */
  private record ForeignFound(long subwalletId, Tx tx, Payment payment) {}

  /** A destination a wallet pays, at any amount. */
  private record Destination(long subwalletId, TonAddress destination) {}

  /** A destination a wallet pays a given amount. */
  private record Payee(long subwalletId, TonAddress destination, long amountNano) {}

  /**
   * The payees that transfers of two or more requests of one wallet pay, the same amount each: a
   * payment to one of them does not name the transfer by itself.
   */
  private Set<Payee> repeatedPayees() {
    Map<Payee, Set<String>> requests = new HashMap<>();
    for (ExpectedTransfer t : expectations.transfers()) {
      if (t.paysJetton()) {
        continue;
      }
      requests.computeIfAbsent(new Payee(t.subwalletId(), t.destination(), t.amountNano()), p -> new HashSet<>())
          .add(t.requestId());
    }
    return requests.entrySet().stream().filter(e -> e.getValue().size() > 1).map(Map.Entry::getKey)
        .collect(Collectors.toUnmodifiableSet());
  }

  /**
   * Takes from {@code left} the first attempt {@code p} is exactly the payment of (wallet,
   * destination, amount, comment): each attempt accounts for one payment at most.
   */
  private static boolean takeAttempt(List<ForeignPayment> left, Payment p) {
    for (Iterator<ForeignPayment> it = left.iterator(); it.hasNext(); ) {
      ForeignPayment a = it.next();
      if (a.wallet().equals(p.wallet()) && a.destination().equals(p.destination()) && a.amountNano() == p.amountNano()
          && a.comment().equals(p.comment())) {
        it.remove();
        return true;
      }
    }
    return false;
  }

  /**
   * The foreign payments found on chain: whether they paid a repeated payee of their wallet (the
   * amount too), and which transfer of ours the ledger binds to the seqno they took, with its
   * terminal settlement.
   */
  private List<ForeignLanding> foreignLandings(List<ForeignFound> found, List<LedgerRecords.Transfer> transfers,
      Map<TransferRef, List<Settlement>> terminal) {
    Set<Payee> repeated = repeatedPayees();
    Set<Destination> repeatedDestinations = repeated.stream()
        .map(p -> new Destination(p.subwalletId(), p.destination())).collect(Collectors.toSet());
    Map<String, LedgerRecords.Transfer> bySeqno = new HashMap<>();
    for (LedgerRecords.Transfer t : transfers) {
      // a transfer FAILED without a transaction let go of its seqno (none of its messages ever applied)
      if (t.seqno() != null && !("FAILED".equals(t.status()) && t.txHash() == null)) {
        bySeqno.put(t.walletAddress() + "/" + t.seqno(), t);
      }
    }
    List<ForeignLanding> out = new ArrayList<>();
    for (ForeignFound f : found) {
      Payment p = f.payment();
      long seqno = f.tx().in() == null ? -1 : f.tx().in().seqno();
      LedgerRecords.Transfer taken = bySeqno.get(p.wallet().toRaw() + "/" + seqno);
      TransferRef ref = taken == null ? null : new TransferRef(taken.requestId(), taken.transferId());
      List<Settlement> settled = ref == null ? List.of() : terminal.getOrDefault(ref, List.of());
      out.add(new ForeignLanding(f.subwalletId(), seqno, p.destination(), p.amountNano(), p.comment(), p.txHash(),
          repeatedDestinations.contains(new Destination(f.subwalletId(), p.destination())),
          repeated.contains(new Payee(f.subwalletId(), p.destination(), p.amountNano())), ref,
          settled.isEmpty() ? null : settled.get(0).status()));
    }
    return out;
  }

  /** Why wallet payment {@code p} is not jetton transfer {@code e}'s hand-over, or null when it is. */
  private String jettonPaymentMismatch(ExpectedTransfer e, long subwalletId, Payment p) {
    if (p.jetton() == null) {
      return "paid " + p.amountNano() + " nanotons to " + p.destination() + " without a jetton transfer";
    }
    if (e.subwalletId() != subwalletId) {
      return "sent it";
    }
    TonAddress ours = ourJettonWallet(TonAddress.parse(e.jetton().master()), subwalletId);
    if (!ours.equals(p.destination())) {
      return "sent it to " + p.destination() + ", not to its jetton wallet " + ours;
    }
    if (!p.jetton().amount().equals(e.jetton().amount()) || !p.jetton().destination().equals(e.destination())) {
      return "asked for " + p.jetton().amount() + " to " + p.jetton().destination();
    }
    return null;
  }

  private static boolean sameJetton(ExpectedTransfer e, Settlement s) {
    return s.jetton() != null && s.jetton().amount().equals(e.jetton().amount())
        && TonAddress.parse(s.jetton().master()).equals(TonAddress.parse(e.jetton().master()));
  }

  /** The jetton wallet of paying wallet {@code subwalletId} for {@code master}, as the master computes it. */
  private TonAddress ourJettonWallet(TonAddress master, long subwalletId) {
    return ourJettonWallets.computeIfAbsent(master.toRaw() + "/" + subwalletId,
        k -> ChainScan.join(sources.api().getJettonWalletAddress(master, sources.wallets().get(subwalletId))));
  }

  /** {@code owner}'s balance of {@code master}'s jetton on chain: 0 while its jetton wallet is not deployed. */
  private BigInteger jettonBalance(TonAddress master, TonAddress owner) {
    TonAddress wallet = ChainScan.join(sources.api().getJettonWalletAddress(master, owner));
    return ChainScan.join(sources.api().getJettonWalletData(wallet)).map(JettonWalletData::balance)
        .orElse(BigInteger.ZERO);
  }

  /**
   * The jetton balances, as {@link SettledJettons} says they must be: each jetton owner holds
   * exactly its SETTLED jetton transfers (nothing paid twice, nothing delivered that was reported
   * unpaid); each paying wallet holds what was minted to it minus its SETTLED jetton transfers
   * (every FAILED one re-credited, nothing lost).
   */
  private ChainAudit.JettonFigures checkJettons(Map<TransferRef, List<Payment>> landings,
      Map<TransferRef, List<Settlement>> terminal) {
    List<ExpectedTransfer> jettonTransfers = expectations.transfers().stream().filter(ExpectedTransfer::paysJetton)
        .toList();
    if (jettonTransfers.isEmpty() && expectations.jettons().isEmpty()) {
      return ChainAudit.JettonFigures.NONE;
    }
    Map<SettlementStatus, Integer> byStatus = new EnumMap<>(SettlementStatus.class);
    int handedOver = 0;
    int delivered = 0;
    int refusedBack = 0;
    SettledJettons asSettled = new SettledJettons();
    // by master, then by owner: the owner's transfers that did not settle, named in its violation
    Map<TonAddress, Map<TonAddress, List<String>>> unsettledTo = new HashMap<>();
    for (ExpectedTransfer e : jettonTransfers) {
      asSettled.requested(e);
      List<Settlement> seen = terminal.getOrDefault(e.ref(), List.of());
      if (!landings.getOrDefault(e.ref(), List.of()).isEmpty()) {
        handedOver++;
      }
      if (seen.isEmpty()) {
        continue;
      }
      Settlement s = seen.get(0);
      byStatus.merge(s.status(), 1, Integer::sum);
      if (s.status() == SettlementStatus.SETTLED) {
        asSettled.settled(e);
        if (s.jettonDelivery() != null && s.jettonDelivery().delivered()) {
          delivered++;
        }
      } else {
        unsettledTo.computeIfAbsent(TonAddress.parse(e.jetton().master()), m -> new HashMap<>())
            .computeIfAbsent(e.destination(), d -> new ArrayList<>()).add(e.ref() + " " + s.status());
        if (s.status() == SettlementStatus.FAILED && s.jettonDelivery() != null
            && s.jettonDelivery().failedAccount() != null && !landings.getOrDefault(e.ref(), List.of()).isEmpty()) {
          refusedBack++;
        }
      }
    }
    Map<TonAddress, Map<TonAddress, BigInteger>> heldBefore = new HashMap<>();
    expectations.jettons().forEach(f -> heldBefore.putIfAbsent(f.master(), f.ownersHeldBefore()));
    BigInteger destinationsBalance = BigInteger.ZERO;
    int destinations = 0;
    for (SettledJettons.Owner owner : asSettled.owners(this::jettonBalance, heldBefore)) {
      destinations++;
      destinationsBalance = destinationsBalance.add(owner.received());
      if (!owner.agrees()) {
        violation(Rule.JETTON_BALANCE_NOT_AS_SETTLED, "jetton owner " + owner.owner() + " holds " + owner.received()
            + " of " + owner.master() + (owner.heldBefore().signum() == 0 ? ""
                : " beyond the " + owner.heldBefore() + " it held before")
            + " but its SETTLED transfers come to " + owner.settled()
            + "; its other transfers: " + unsettledTo.getOrDefault(owner.master(), Map.of())
                .getOrDefault(owner.owner(), List.of()));
      }
    }
    BigInteger minted = BigInteger.ZERO;
    BigInteger payersBalance = BigInteger.ZERO;
    for (JettonFunding funding : expectations.jettons()) {
      for (SettledJettons.Payer payer : asSettled.payers(funding.master(), funding.mintedPerWallet(), sources.wallets(),
          this::jettonBalance)) {
        minted = minted.add(payer.minted());
        payersBalance = payersBalance.add(payer.held());
        if (!payer.agrees()) {
          violation(Rule.JETTON_PAYER_BALANCE_WRONG, "subwallet " + payer.subwalletId() + " holds " + payer.held()
              + " of " + funding.master() + "; minted " + payer.minted() + " minus its SETTLED jetton transfers "
              + payer.paid() + " is " + payer.expected());
        }
      }
    }
    return new ChainAudit.JettonFigures(jettonTransfers.size(), byStatus, handedOver, delivered, refusedBack,
        asSettled.settledUnits(), destinations, destinationsBalance, minted, payersBalance);
  }

  /** Every landed leg's earlier legs landed before it (lt order on the one wallet). */
  private void checkLegOrder(Map<TransferRef, List<Payment>> landings) {
    Map<String, List<ExpectedTransfer>> byRequest = expectations.transfers().stream()
        .collect(Collectors.groupingBy(ExpectedTransfer::requestId));
    for (List<ExpectedTransfer> legs : byRequest.values()) {
      legs.sort(Comparator.comparingInt(ExpectedTransfer::transferIndex));
      for (int j = 1; j < legs.size(); j++) {
        List<Payment> later = landings.get(legs.get(j).ref());
        if (later == null || later.isEmpty()) {
          continue;
        }
        for (int i = 0; i < j; i++) {
          List<Payment> earlier = landings.get(legs.get(i).ref());
          if (earlier == null || earlier.isEmpty()) {
            violation(Rule.LEG_OUT_OF_ORDER, legs.get(j).ref() + " landed (tx " + later.get(0).txHash()
                + ") but leg " + i + " " + legs.get(i).ref() + " never did");
          } else if (earlier.get(0).lt() >= later.get(0).lt()) {
            violation(Rule.LEG_OUT_OF_ORDER, legs.get(j).ref() + " landed at lt " + later.get(0).lt()
                + ", before leg " + i + " at lt " + earlier.get(0).lt());
          }
        }
      }
    }
  }

  /** Seqnos 0, 1, 2, ... on every wallet, ending where the API says the wallet is; returns the applied count. */
  private int checkSeqnos(Map<Long, WalletHistory> chain) {
    int applied = 0;
    for (WalletHistory h : chain.values()) {
      List<Tx> messages = h.applied();
      applied += messages.size();
      for (int k = 0; k < messages.size(); k++) {
        if (messages.get(k).in().seqno() != k) {
          violation(Rule.SEQNO_GAP, "subwallet " + h.subwalletId() + ": applied message " + k + " (tx "
              + messages.get(k).hash() + ") has seqno " + messages.get(k).in().seqno());
          break;
        }
      }
      if (h.seqno() != messages.size()) {
        violation(Rule.SEQNO_GAP, "subwallet " + h.subwalletId() + ": seqno " + h.seqno() + " but "
            + messages.size() + " messages applied");
      }
    }
    return applied;
  }

  private void checkLedgerAgainstChain(Map<Long, WalletHistory> chain, List<LedgerRecords.Message> messages,
      List<LedgerRecords.Transfer> transfers, Map<TransferRef, List<Payment>> landings, List<LedgerRecords.Fenced> fenced) {
    Map<String, Tx> byTxHash = new HashMap<>();
    Map<String, Tx> appliedByMessage = new HashMap<>();
    for (WalletHistory h : chain.values()) {
      for (Tx tx : h.transactions()) {
        byTxHash.put(tx.hash(), tx);
        if (tx.in() != null && !tx.aborted()) {
          appliedByMessage.put(tx.in().messageHash(), tx);
        }
      }
    }
    Set<String> recorded = new HashSet<>();
    for (LedgerRecords.Message m : messages) {
      recorded.add(m.messageHash());
      if ("CONFIRMED".equals(m.status())) {
        Tx tx = m.txHash() == null ? null : byTxHash.get(m.txHash());
        if (tx == null || tx.in() == null || tx.aborted() || m.lt() == null || tx.lt() != m.lt()
            || !tx.in().messageHash().equals(m.messageHash()) || tx.in().seqno() != m.seqno()
            || !tx.wallet().toRaw().equals(m.walletAddress())) {
          violation(Rule.LEDGER_NOT_CHAIN, "CONFIRMED message " + m.messageHash() + " of " + m.requestId() + "/"
              + m.transferId() + " (seqno " + m.seqno() + ", tx " + m.txHash() + " lt " + m.lt() + ") is not that"
              + " transaction on chain" + (tx == null ? " (no such transaction)" : ""));
        }
      } else if ("EXPIRED".equals(m.status()) && appliedByMessage.containsKey(m.messageHash())) {
        violation(Rule.LEDGER_NOT_CHAIN, "message " + m.messageHash() + " of " + m.requestId() + "/" + m.transferId()
            + " is EXPIRED in the ledger but applied in tx " + appliedByMessage.get(m.messageHash()).hash());
      }
    }
    for (LedgerRecords.Transfer t : transfers) {
      if (!"SETTLED".equals(t.status())) {
        continue;
      }
      List<Payment> paid = landings.getOrDefault(new TransferRef(t.requestId(), t.transferId()), List.of());
      if (paid.size() != 1 || !paid.get(0).txHash().equals(t.txHash())) {
        violation(Rule.LEDGER_NOT_CHAIN, "transfer " + t.requestId() + "/" + t.transferId() + " is SETTLED by tx "
            + t.txHash() + " in the ledger; the chain shows " + paid.stream().map(Payment::txHash).toList());
      }
    }
    Set<String> foreignHashes = expectations.foreign().stream().map(ForeignPayment::messageHash)
        .filter(java.util.Objects::nonNull).collect(Collectors.toSet());
    for (Tx tx : appliedByMessage.values()) {
      if (tx.in().signedByOurKey() && !recorded.contains(tx.in().messageHash())
          && !foreignHashes.contains(tx.in().messageHash())) {
        violation(Rule.SIGNED_OUTSIDE_LEDGER, "message " + tx.in().messageHash() + " (seqno " + tx.in().seqno()
            + ") of " + tx.wallet() + " applied in tx " + tx.hash() + " but is in no ledger row");
      }
    }
    // A refused message may be byte for byte the one the partition's new owner signed and recorded
    // (Ed25519 is deterministic: same transfer, seqno and valid_until second): that one is the owner's.
    for (LedgerRecords.Fenced f : fenced) {
      if (f.messageHash() != null && appliedByMessage.containsKey(f.messageHash())
          && !recorded.contains(f.messageHash())) {
        violation(Rule.FENCED_MESSAGE_USED, "message " + f.messageHash() + " of " + f.requestId() + "/"
            + f.transferId() + " was refused by fencing at " + f.at() + " and is in no ledger row, but applied in"
            + " tx " + appliedByMessage.get(f.messageHash()).hash());
      }
    }
  }

  /** Each reused requestId's other content is on payout.rejected; returns how many are. */
  private int checkReusedIds(List<Rejected> rejected) {
    int found = 0;
    for (ReusedRequestId r : expectations.reusedIds()) {
      String id = "\"" + r.requestId() + "\"";
      boolean isRejected = rejected.stream().anyMatch(x -> x.originalPayload() != null
          && x.originalPayload().contains(id) && x.originalPayload().contains(r.mark()));
      if (isRejected) {
        found++;
      } else {
        violation(Rule.REUSED_ID_NOT_REJECTED, "request " + r.requestId() + " reused on subwallet " + r.subwalletId()
            + " with other content is not on payout.rejected");
      }
    }
    return found;
  }

  private void violation(Rule rule, String detail) {
    int n = perRule.merge(rule, 1, Integer::sum);
    if (n <= DETAILS_PER_RULE) {
      violations.add(new Violation(rule, detail));
    }
    log.warn("audit violation rule={} detail={}", rule, detail);
  }
}
