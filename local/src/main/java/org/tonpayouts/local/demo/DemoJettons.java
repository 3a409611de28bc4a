package org.tonpayouts.local.demo;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import org.tonpayouts.devnet.Devnet;
import org.tonpayouts.local.audit.ExpectedTransfer;
import org.tonpayouts.local.audit.SettledJettons;
import org.tonpayouts.local.audit.TransferRef;
import org.tonpayouts.local.measure.ObservedSettlement;
import org.tonpayouts.local.measure.PayoutLoad;
import org.tonpayouts.local.measure.Settling;
import org.tonpayouts.local.stack.WalletSet;
import org.tonpayouts.schemas.Settlement;
import org.tonpayouts.schemas.SettlementStatus;
import org.tonpayouts.ton.address.TonAddress;

/**
 * The demo's jetton in its summary: how its jetton transfers ended, how much of the jetton they
 * paid, and whether devnet's jetton wallets hold exactly that (every recipient what its SETTLED
 * transfers paid it, every paying wallet what it was minted less what it paid), as
 * {@link SettledJettons} says, the chain auditor's reckoning.
 *
 * @param symbol the jetton's symbol (the stack's {@code USDT})
 * @param byStatus the jetton transfers by the status of their settlement
 * @param paid base units the SETTLED jetton transfers paid
 * @param recipients recipients paid at least one SETTLED jetton transfer
 * @param problems one line per balance devnet disagrees on; empty when it agrees
 */
public record DemoJettons(String symbol, Map<SettlementStatus, Integer> byStatus, BigInteger paid, int recipients,
                          List<String> problems) {
  /** The stack's jetton has 6 decimals, as USDT (StackRun's {@code jettons} entry). */
  public static final int DECIMALS = 6;

  public DemoJettons {
    byStatus = Map.copyOf(byStatus);
    problems = List.copyOf(problems);
  }

  /**
   * Tallies {@code load}'s jetton transfers from their settlements and checks them against devnet's
   * jetton wallets of {@code master}.
   *
   * @param minted what every paying wallet was minted before the load
   */
  public static DemoJettons check(String symbol, PayoutLoad load, Settling settling, Devnet devnet, TonAddress master,
      WalletSet wallets, BigInteger minted) {
    Map<TransferRef, ExpectedTransfer> jettonTransfers = new HashMap<>();
    SettledJettons asSettled = new SettledJettons();
    load.expected().stream().filter(ExpectedTransfer::paysJetton).forEach(t -> {
      jettonTransfers.put(t.ref(), t);
      asSettled.requested(t);
    });
    Map<SettlementStatus, Integer> byStatus = new EnumMap<>(SettlementStatus.class);
    for (ObservedSettlement observed : settling.settlements()) {
      ExpectedTransfer t = jettonTransfers.get(observed.ref());
      if (t == null) {
        continue;
      }
      Settlement s = observed.settlement();
      byStatus.merge(s.status(), 1, Integer::sum);
      if (s.status() == SettlementStatus.SETTLED) {
        asSettled.settled(t);
      }
    }
    SettledJettons.Balances onDevnet = (jetton, owner) -> devnet.jettonWallet(jetton, owner).balance();
    List<String> problems = new ArrayList<>();
    // the demo's recipients held none of the jetton before it
    for (SettledJettons.Owner recipient : asSettled.owners(onDevnet, Map.of())) {
      if (!recipient.agrees()) {
        problems.add("recipient " + recipient.owner().toFriendly(false, false) + " holds " + format(recipient.held())
            + " " + symbol + ", its settled transfers paid " + format(recipient.settled()));
      }
    }
    for (SettledJettons.Payer payer : asSettled.payers(master, minted, wallets.addresses(), onDevnet)) {
      if (!payer.agrees()) {
        problems.add("subwallet " + payer.subwalletId() + " holds " + format(payer.held()) + " " + symbol + ", "
            + format(payer.expected()) + " expected (minted " + format(minted) + ", paid " + format(payer.paid())
            + ")");
      }
    }
    return new DemoJettons(symbol, byStatus, asSettled.settledUnits(), asSettled.ownersPaid(), problems);
  }

  /** True when devnet's jetton balances are exactly what the settlements say. */
  public boolean agree() {
    return problems.isEmpty();
  }

  public int count(SettlementStatus status) {
    return byStatus.getOrDefault(status, 0);
  }

  /** The summary's lines, e.g. {@code USDT  12 USDT transfers settled, 30.5 USDT paid to 10 recipients}. */
  public List<String> lines() {
    List<String> lines = new ArrayList<>();
    String others = byStatus.entrySet().stream().filter(e -> e.getKey() != SettlementStatus.SETTLED)
        .map(e -> ", " + e.getValue() + " " + e.getKey().name().toLowerCase()).collect(Collectors.joining());
    int settled = count(SettlementStatus.SETTLED);
    lines.add(String.format("%-15s %d %s transfer%s settled%s, %s %s paid to %d recipient%s", symbol, settled, symbol,
        settled == 1 ? "" : "s", others, format(paid), symbol, recipients, recipients == 1 ? "" : "s"));
    if (agree()) {
      lines.add(String.format("%-15s devnet agrees: the recipients' jetton wallets hold what was paid, the paying"
          + " wallets' are down by as much", symbol + " balances"));
    } else {
      problems.stream().limit(10).forEach(p -> lines.add(symbol + " balance problem: " + p));
      if (problems.size() > 10) {
        lines.add("... and " + (problems.size() - 10) + " more " + symbol + " balance problems");
      }
    }
    return lines;
  }

  /** Base units as the jetton's amount: 30500000 is 30.5. */
  static String format(BigInteger units) {
    return new BigDecimal(units).movePointLeft(DECIMALS).stripTrailingZeros().toPlainString();
  }
}
