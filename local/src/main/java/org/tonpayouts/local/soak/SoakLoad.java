package org.tonpayouts.local.soak;

import java.math.BigInteger;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Random;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.stream.Collectors;
import org.tonpayouts.local.audit.ExpectedTransfer;
import org.tonpayouts.local.stack.StackRun;
import org.tonpayouts.local.stack.WalletSet;
import org.tonpayouts.schemas.JettonAmount;
import org.tonpayouts.schemas.PayoutRequest;
import org.tonpayouts.schemas.TransferKind;
import org.tonpayouts.schemas.TransferRequest;
import org.tonpayouts.ton.address.TonAddress;

/**
 * The requests of a soak run and when, within the load window, each is produced: single and
 * multi-leg requests (a payout, then up to three commission sweeps), a few with a leg larger than
 * the wallet's balance, a few exact duplicates of earlier requests and a few requestIds reused
 * with other content. Knows what every accepted transfer should pay and what must never be paid.
 *
 * <p>Payees repeat: a wallet pays the same destination the same amount in several of its requests
 * (its recipient, when the wallet and recipient counts line up as they do up to 100 wallets, and
 * the treasury's sweeps), so a payment to a payee never names the transfer by itself; only the
 * transfer's seqno and message do (see {@link #repeatedPayees()}).
 */
public final class SoakLoad {
  /** A soak payout is 0.01 to 0.05 TON (as the demo's). */
  public static final long PAYOUT_UNIT_NANO = 10_000_000L;
  /** Commission sweep k of a request is k times 0.001 TON. */
  public static final long COMMISSION_NANO = 1_000_000L;
  /** More than a soak wallet is funded with ({@link StackRun#FUNDING_NANO}), well under the amount limits. */
  public static final long OVER_BALANCE_NANO = StackRun.FUNDING_NANO + 50_000_000_000L;
  /** A soak jetton transfer pays 1 to 5 units of the run's 6-decimal jetton (1 USDT = 1,000,000 base units). */
  public static final BigInteger JETTON_UNIT = BigInteger.valueOf(1_000_000L);
  /** Fresh jetton owners of a run: one per two paying wallets (at least two), so several transfers pay each. */
  static int jettonPayees(int wallets) {
    return Math.max(2, wallets / 2);
  }
  /** Marks the comment of a reused requestId's other content: it must never be paid. */
  public static final String REUSED_ID_MARK = "reused id";

  /** Why a request is in the load. */
  public enum Kind {
    /** A request to pay. */
    PAYOUT,
    /** A request with one leg larger than the wallet's balance: that leg fails, the legs after it are aborted. */
    OVER_BALANCE,
    /** An exact copy of an earlier request: dropped silently, nothing paid twice. */
    DUPLICATE,
    /** An earlier request's id with other content: rejected, never paid. */
    REUSED_ID
  }

  /**
   * One record to produce.
   *
   * @param at when, as a share of the load window (0..1)
   * @param afterOriginalSettled produce it only once every transfer of {@code originalId} has a
   *     settlement (a reused id on another wallet: only then is it certain which content came first)
   */
  public record Planned(double at, PayoutRequest request, Kind kind, String originalId,
                       boolean afterOriginalSettled) {}

  /** A destination a wallet pays a given amount. */
  public record Payee(long subwalletId, TonAddress destination, long amountNano) {}

  /**
   * The jetton transfers mixed into the load.
   *
   * @param master the run's jetton (streams-app's {@code jettons})
   * @param share each leg's chance of paying the jetton instead of TON (0: none)
   * @param refusingPayees how many of the jetton owners ({@link #jettonPayee} 0, 1, ...) have their
   *     jetton wallet locked for receiving before the load (a stablecoin wallet's status 2): every
   *     transfer to them is refused by the receiver's jetton wallet, must end FAILED, and its jettons
   *     must come back to the payer
   */
  public record Jettons(TonAddress master, double share, int refusingPayees) {
    public Jettons {
      java.util.Objects.requireNonNull(master, "master");
      if (!(share >= 0 && share <= 1)) {
        throw new IllegalArgumentException("the jetton share must be within 0..1, got " + share);
      }
      if (refusingPayees < 0) {
        throw new IllegalArgumentException("refusing jetton payees must be >= 0, got " + refusingPayees);
      }
    }
  }

  private final List<Planned> plan;
  private final List<ExpectedTransfer> expected;
  private final List<PayoutRequest> reused;
  private final Optional<Jettons> jettons;
  private final List<TonAddress> refusingPayees;

  private SoakLoad(List<Planned> plan, List<ExpectedTransfer> expected, List<PayoutRequest> reused,
      Optional<Jettons> jettons, List<TonAddress> refusingPayees) {
    this.plan = List.copyOf(plan);
    this.expected = List.copyOf(expected);
    this.reused = List.copyOf(reused);
    this.jettons = jettons;
    this.refusingPayees = List.copyOf(refusingPayees);
  }

  /**
   * About {@code transfers} transfers over the wallets (round-robin), produced evenly over the
   * window; about 1 % of the requests (at least one each) over the balance, duplicated, and reused
   * with other content (half on the same wallet, half on another one once the original settled).
   */
  public static SoakLoad build(WalletSet wallets, int transfers, String runId, long seed, Instant createdAt) {
    return build(wallets, transfers, runId, seed, createdAt, Optional.empty());
  }

  /**
   * {@link #build(WalletSet, int, String, long, Instant)} with {@code jettons}: each leg (but a leg
   * over the balance, which stays TON) pays the jetton with its chance, to one of a pool of fresh
   * owners nobody else pays that jetton to ({@link #jettonPayee}), so each owner's jetton balance
   * is exactly the sum of its SETTLED jetton transfers. The choices follow from the seed apart from
   * the rest of the load's, so the TON mix and the chaos plan are the same with or without them.
   */
  public static SoakLoad build(WalletSet wallets, int transfers, String runId, long seed, Instant createdAt,
      Optional<Jettons> jettons) {
    Random random = new Random(seed);
    JettonLegs jettonLegs = new JettonLegs(jettons, seed, runId, jettonPayees(wallets.count()));
    List<PayoutRequest> originals = new ArrayList<>();
    List<Planned> plan = new ArrayList<>();
    List<ExpectedTransfer> expected = new ArrayList<>();
    int planned = 0;
    for (int i = 0; planned < transfers; i++) {
      long subwallet = wallets.subwalletId(i % wallets.count());
      int legs = Math.min(transfers - planned, legCount(random));
      PayoutRequest request = request(runId + "-" + i, subwallet, legs, wallets, i, -1, "", createdAt, jettonLegs);
      originals.add(request);
      planned += legs;
    }
    int few = Math.max(1, originals.size() / 100);
    List<Integer> overBalance = pick(random, originals.size(), few);
    for (int i = 0; i < originals.size(); i++) {
      PayoutRequest r = originals.get(i);
      Kind kind = Kind.PAYOUT;
      if (overBalance.contains(i)) {
        r = request(r.requestId(), r.subwalletId(), r.transfers().size(), wallets, i,
            random.nextInt(r.transfers().size()), "", createdAt, jettonLegs);
        originals.set(i, r);
        kind = Kind.OVER_BALANCE;
      }
      double at = (double) i / originals.size();
      plan.add(new Planned(at, r, kind, null, false));
      for (int leg = 0; leg < r.transfers().size(); leg++) {
        TransferRequest t = r.transfers().get(leg);
        expected.add(new ExpectedTransfer(r.requestId(), t.transferId(), leg, r.subwalletId(),
            TonAddress.parse(t.destination()), t.amountNano(), t.comment(), t.jetton()));
      }
    }
    for (int i : pick(random, originals.size(), few)) {
      PayoutRequest original = originals.get(i);
      plan.add(new Planned(later(random, plan, original), original, Kind.DUPLICATE, original.requestId(), false));
    }
    List<PayoutRequest> reused = new ArrayList<>();
    List<Integer> reuse = pick(random, originals.size(), Math.max(2, few));
    for (int k = 0; k < reuse.size(); k++) {
      PayoutRequest original = originals.get(reuse.get(k));
      boolean otherWallet = k % 2 == 1 && wallets.count() > 1;
      long subwallet = otherWallet
          ? wallets.subwalletId((int) ((original.subwalletId() - wallets.firstSubwallet() + 1) % wallets.count()))
          : original.subwalletId();
      // same id and transfer ids, one nanoton more on the first leg and a marked comment: other content
      PayoutRequest other = reusedContent(original, subwallet, createdAt);
      reused.add(other);
      plan.add(new Planned(later(random, plan, original), other, Kind.REUSED_ID, original.requestId(), otherWallet));
    }
    plan.sort(Comparator.comparingDouble(Planned::at));
    List<TonAddress> refusing = new ArrayList<>();
    for (int k = 0; k < jettons.map(Jettons::refusingPayees).orElse(0) && k < jettonLegs.payees(); k++) {
      refusing.add(jettonPayee(runId, k));
    }
    return new SoakLoad(plan, expected, reused, jettons, refusing);
  }

  /** 1 leg most often, up to 4: 60 %, 25 %, 10 %, 5 %. */
  private static int legCount(Random random) {
    double d = random.nextDouble();
    return d < 0.60 ? 1 : d < 0.85 ? 2 : d < 0.95 ? 3 : 4;
  }

  /** Which legs pay the jetton, how much, and to whom: drawn per leg, the same however often it is asked. */
  private record JettonLegs(Optional<Jettons> jettons, long seed, String runId, int payees) {
    /** The jetton leg {@code leg} of request {@code i} pays, or empty for a TON leg. */
    Optional<JettonAmount> amount(int i, int leg) {
      if (jettons.isEmpty() || jettons.get().share() == 0) {
        return Optional.empty();
      }
      SplittableRandom r = draw(i, leg);
      if (r.nextDouble() >= jettons.get().share()) {
        return Optional.empty();
      }
      return Optional.of(new JettonAmount(jettons.get().master().toRaw(),
          JETTON_UNIT.multiply(BigInteger.valueOf(1 + r.nextInt(5)))));
    }

    TonAddress payee(int i, int leg) {
      SplittableRandom r = draw(i, leg);
      r.nextDouble();
      r.nextInt(5);
      return jettonPayee(runId, r.nextInt(payees));
    }

    private SplittableRandom draw(int i, int leg) {
      return new SplittableRandom(seed ^ 0x6a657474_6f6e73L ^ ((long) i << 3 | leg) * 0x9e3779b97f4a7c15L);
    }
  }

  /**
   * Jetton owner {@code k} of a run: an address derived from the run id, which no account of any
   * other run or of this run's TON payments is, so only this run's jetton transfers ever pay it.
   */
  public static TonAddress jettonPayee(String runId, int k) {
    try {
      byte[] hash = java.security.MessageDigest.getInstance("SHA-256")
          .digest((runId + "/jetton-payee/" + k).getBytes(java.nio.charset.StandardCharsets.UTF_8));
      return TonAddress.of(0, hash);
    } catch (java.security.NoSuchAlgorithmException e) {
      throw new IllegalStateException("SHA-256 is missing from this JVM", e);
    }
  }

  private static PayoutRequest request(String requestId, long subwallet, int legs, WalletSet wallets, int i,
      int overBalanceLeg, String mark, Instant createdAt, JettonLegs jettonLegs) {
    List<TransferRequest> transfers = new ArrayList<>();
    for (int leg = 0; leg < legs; leg++) {
      boolean payout = leg == 0;
      String transferId = payout ? "payout" : "commission-" + leg;
      TransferKind kind = payout ? TransferKind.PAYOUT : TransferKind.COMMISSION_SWEEP;
      Optional<JettonAmount> jetton = leg == overBalanceLeg ? Optional.empty() : jettonLegs.amount(i, leg);
      if (jetton.isPresent()) {
        transfers.add(TransferRequest.ofJetton(transferId, kind, jettonLegs.payee(i, leg).toFriendly(false, false),
            jetton.get(), comment(requestId, transferId) + mark));
        continue;
      }
      TonAddress destination = payout ? wallets.recipient(i) : wallets.treasury();
      long amount = payout ? PAYOUT_UNIT_NANO * (1 + i % 5) : COMMISSION_NANO * leg;
      if (leg == overBalanceLeg) {
        amount = OVER_BALANCE_NANO;
      }
      // non-bounceable: recipients are fresh, uninitialized accounts that keep what they are sent
      transfers.add(new TransferRequest(transferId, kind, destination.toFriendly(false, false), amount,
          comment(requestId, transferId) + mark, null));
    }
    return PayoutRequest.of(requestId, subwallet, transfers, createdAt);
  }

  private static PayoutRequest reusedContent(PayoutRequest original, long subwallet, Instant createdAt) {
    List<TransferRequest> transfers = new ArrayList<>();
    for (int leg = 0; leg < original.transfers().size(); leg++) {
      TransferRequest t = original.transfers().get(leg);
      String comment = t.comment() + " " + REUSED_ID_MARK;
      if (t.paysJetton()) {
        JettonAmount more = leg == 0 ? new JettonAmount(t.jetton().master(), t.jetton().amount().add(BigInteger.ONE))
            : t.jetton();
        transfers.add(TransferRequest.ofJetton(t.transferId(), t.kind(), t.destination(), more, comment));
        continue;
      }
      transfers.add(new TransferRequest(t.transferId(), t.kind(), t.destination(),
          leg == 0 ? t.amountNano() + 1 : t.amountNano(), comment, t.bounce()));
    }
    return PayoutRequest.of(original.requestId(), subwallet, transfers, createdAt);
  }

  /** The on-chain comment of a transfer: unique in the run, so the auditor can tell every payment apart. */
  public static String comment(String requestId, String transferId) {
    return requestId + " " + transferId;
  }

  /** A moment after the original's, in the rest of the window. */
  private static double later(Random random, List<Planned> plan, PayoutRequest original) {
    double at = plan.stream().filter(p -> p.request() == original).findFirst().orElseThrow().at();
    return at + (1 - at) * random.nextDouble();
  }

  private static List<Integer> pick(Random random, int n, int count) {
    List<Integer> all = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      all.add(i);
    }
    java.util.Collections.shuffle(all, random);
    return List.copyOf(all.subList(0, Math.min(count, n)));
  }

  /** The ids of the requests of one kind. */
  public java.util.Set<String> requestIds(Kind kind) {
    return plan.stream().filter(p -> p.kind() == kind).map(p -> p.request().requestId())
        .collect(java.util.stream.Collectors.toUnmodifiableSet());
  }

  /** Everything to produce, in the order of {@link Planned#at()}. */
  public List<Planned> plan() {
    return plan;
  }

  /** Every transfer of every accepted request: each must end with exactly one terminal settlement. */
  public List<ExpectedTransfer> expected() {
    return expected;
  }

  /** The other contents produced under used requestIds: none of it may ever be paid or settled. */
  public List<PayoutRequest> reusedIds() {
    return reused;
  }

  /** The payees that TON transfers of two or more requests of one wallet pay, the same amount each. */
  public Set<Payee> repeatedPayees() {
    Map<Payee, Set<String>> requests = new HashMap<>();
    for (ExpectedTransfer t : expected) {
      if (t.paysJetton()) {
        continue; // the front-runs are TON-only
      }
      requests.computeIfAbsent(new Payee(t.subwalletId(), t.destination(), t.amountNano()), p -> new HashSet<>())
          .add(t.requestId());
    }
    return requests.entrySet().stream().filter(e -> e.getValue().size() > 1).map(Map.Entry::getKey)
        .collect(Collectors.toUnmodifiableSet());
  }

  /** The jetton mixed into the load, if any. */
  public Optional<Jettons> jettons() {
    return jettons;
  }

  /** The jetton owners whose jetton wallet must refuse every transfer (locked before the load). */
  public List<TonAddress> refusingPayees() {
    return refusingPayees;
  }

  /** The jetton transfers of the accepted requests. */
  public List<ExpectedTransfer> jettonTransfers() {
    return expected.stream().filter(ExpectedTransfer::paysJetton).toList();
  }

  public int transferCount() {
    return expected.size();
  }

  public long count(Kind kind) {
    return plan.stream().filter(p -> p.kind() == kind).count();
  }
}
