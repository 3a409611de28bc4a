package org.tonpayouts.local.audit;

import java.math.BigInteger;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.tonpayouts.ton.address.TonAddress;

/**
 * What the SETTLED jetton transfers of a run say every jetton balance on chain must be: each
 * owner paid holds their sum beyond what it held before, each paying wallet what was minted to it
 * less its own. Nothing else moves a jetton in a run, so a balance that differs is a jetton paid
 * twice, delivered though reported unpaid, or lost. The chain auditor's balance rules and the
 * demo's jetton check both read the balances through this, and each words a disagreement its own
 * way.
 */
public final class SettledJettons {
  /** An owner's balance of a master's jetton on chain: 0 while its jetton wallet is not deployed. */
  @FunctionalInterface
  public interface Balances {
    BigInteger of(TonAddress master, TonAddress owner);
  }

  /**
   * A jetton owner's balance beside what its SETTLED transfers paid it.
   *
   * @param held its balance on chain
   * @param heldBefore what it held before the run (minted to deploy its jetton wallet, say)
   * @param settled the sum of its SETTLED transfers
   */
  public record Owner(TonAddress master, TonAddress owner, BigInteger held, BigInteger heldBefore,
                      BigInteger settled) {
    /** What it holds beyond what it held before the run. */
    public BigInteger received() {
      return held.subtract(heldBefore);
    }

    public boolean agrees() {
      return received().equals(settled);
    }
  }

  /**
   * A paying wallet's balance beside what was minted to it less its SETTLED transfers.
   *
   * @param held its balance on chain
   * @param paid the sum of its SETTLED transfers
   */
  public record Payer(TonAddress master, long subwalletId, BigInteger held, BigInteger minted, BigInteger paid) {
    public BigInteger expected() {
      return minted.subtract(paid);
    }

    public boolean agrees() {
      return held.equals(expected());
    }
  }

  private static final Comparator<TonAddress> RAW_ORDER = Comparator.comparing(TonAddress::toRaw);

  /** SETTLED units by master, then by owner (every destination of a jetton transfer, 0 until one settles). */
  private final Map<TonAddress, Map<TonAddress, BigInteger>> toOwner = new TreeMap<>(RAW_ORDER);
  /** SETTLED units by master, then by paying subwallet. */
  private final Map<TonAddress, Map<Long, BigInteger>> fromWallet = new HashMap<>();
  private BigInteger settledUnits = BigInteger.ZERO;

  /** Jetton transfer {@code t} of the run: its destination's balance is checked, whatever it settles as. */
  public void requested(ExpectedTransfer t) {
    toOwner.computeIfAbsent(master(t), m -> new TreeMap<>(RAW_ORDER)).putIfAbsent(t.destination(), BigInteger.ZERO);
  }

  /** Jetton transfer {@code t} SETTLED: its amount left its subwallet and reached its destination. */
  public void settled(ExpectedTransfer t) {
    requested(t);
    BigInteger amount = t.jetton().amount();
    toOwner.get(master(t)).merge(t.destination(), amount, BigInteger::add);
    fromWallet.computeIfAbsent(master(t), m -> new HashMap<>()).merge(t.subwalletId(), amount, BigInteger::add);
    settledUnits = settledUnits.add(amount);
  }

  /** Base units of every SETTLED jetton transfer, of any master. */
  public BigInteger settledUnits() {
    return settledUnits;
  }

  /** Owners paid at least one SETTLED jetton transfer. */
  public int ownersPaid() {
    return (int) toOwner.values().stream().flatMap(owners -> owners.entrySet().stream())
        .filter(o -> o.getValue().signum() > 0).map(Map.Entry::getKey).distinct().count();
  }

  /**
   * Every jetton owner's balance on chain beside its SETTLED transfers, by master and owner (raw
   * address order).
   *
   * @param heldBefore by master, what owners held before the run; an owner missing held none
   */
  public List<Owner> owners(Balances chain, Map<TonAddress, Map<TonAddress, BigInteger>> heldBefore) {
    List<Owner> out = new ArrayList<>();
    toOwner.forEach((master, owners) -> owners.forEach((owner, settled) -> out.add(new Owner(master, owner,
        chain.of(master, owner), heldBefore.getOrDefault(master, Map.of()).getOrDefault(owner, BigInteger.ZERO),
        settled))));
    return out;
  }

  /**
   * Each paying wallet's balance of {@code master}'s jetton on chain beside {@code mintedPerWallet}
   * less its SETTLED transfers, in the order of {@code wallets} (addresses by subwallet id).
   */
  public List<Payer> payers(TonAddress master, BigInteger mintedPerWallet, Map<Long, TonAddress> wallets,
      Balances chain) {
    Map<Long, BigInteger> paid = fromWallet.getOrDefault(master, Map.of());
    List<Payer> out = new ArrayList<>();
    wallets.forEach((id, address) -> out.add(new Payer(master, id, chain.of(master, address), mintedPerWallet,
        paid.getOrDefault(id, BigInteger.ZERO))));
    return out;
  }

  private static TonAddress master(ExpectedTransfer t) {
    return TonAddress.parse(t.jetton().master());
  }
}
