package org.tonpayouts.local.audit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.groups.Tuple.tuple;

import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.tonpayouts.schemas.JettonAmount;
import org.tonpayouts.ton.address.TonAddress;

/**
 * The reckoning the chain auditor and the demo share, on balances given as figures: owners hold
 * their SETTLED transfers beyond what they held before, payers what was minted less theirs; a
 * transfer that did not settle counts for nothing but still has its owner checked. (The auditor's
 * and the demo's tests read the balances off devnet.)
 */
class SettledJettonsTest {
  private static final TonAddress MASTER = address("master");
  private static final TonAddress OTHER_MASTER = address("other master");
  private static final TonAddress ALICE = address("alice");
  private static final TonAddress BOB = address("bob");
  private static final Map<Long, TonAddress> PAYERS = payers();

  @Test
  void shouldExpectEachOwnerToHoldItsSettledTransfersAndEachPayerMintedLessItsOwn() {
    SettledJettons asSettled = new SettledJettons();
    ExpectedTransfer toAlice = transfer("r1", 1, ALICE, MASTER, 300);
    ExpectedTransfer toAliceAgain = transfer("r2", 2, ALICE, MASTER, 200);
    ExpectedTransfer toBobFailed = transfer("r3", 1, BOB, MASTER, 50);
    ExpectedTransfer otherJetton = transfer("r4", 1, BOB, OTHER_MASTER, 7);
    List.of(toAlice, toAliceAgain, toBobFailed, otherJetton).forEach(asSettled::requested);
    List.of(toAlice, toAliceAgain, otherJetton).forEach(asSettled::settled);
    // on chain: Alice got one unit too many, Bob held 10 before the run, payer 2 lost one
    Map<TonAddress, BigInteger> onChain = Map.of(ALICE, units(501), BOB, units(10), PAYERS.get(1L), units(700),
        PAYERS.get(2L), units(799));
    SettledJettons.Balances chain = (master, owner) -> master.equals(MASTER)
        ? onChain.getOrDefault(owner, BigInteger.ZERO) : owner.equals(BOB) ? units(7) : BigInteger.ZERO;

    List<SettledJettons.Owner> owners = asSettled.owners(chain, Map.of(MASTER, Map.of(BOB, units(10))));
    List<SettledJettons.Payer> payers = asSettled.payers(MASTER, units(1000), PAYERS, chain);

    assertThat(owners).extracting(SettledJettons.Owner::master, SettledJettons.Owner::owner,
        SettledJettons.Owner::received, SettledJettons.Owner::settled, SettledJettons.Owner::agrees)
        .containsExactlyInAnyOrder(
            tuple(MASTER, ALICE, units(501), units(500), false),
            tuple(MASTER, BOB, units(0), units(0), true),
            tuple(OTHER_MASTER, BOB, units(7), units(7), true));
    assertThat(payers).extracting(SettledJettons.Payer::subwalletId, SettledJettons.Payer::paid,
        SettledJettons.Payer::expected, SettledJettons.Payer::agrees)
        .containsExactly(
            tuple(1L, units(300), units(700), true),
            tuple(2L, units(200), units(800), false));
    assertThat(asSettled.settledUnits()).isEqualTo(units(507));
    assertThat(asSettled.ownersPaid()).as("Alice and Bob, each once").isEqualTo(2);
  }

  @Test
  void shouldListOwnersByMasterAndOwnerInRawAddressOrder() {
    SettledJettons asSettled = new SettledJettons();
    List.of(BOB, ALICE, address("carol")).forEach(o -> asSettled.requested(transfer("r-" + o, 1, o, MASTER, 1)));

    List<TonAddress> listed = asSettled.owners((master, owner) -> BigInteger.ZERO, Map.of()).stream()
        .map(SettledJettons.Owner::owner).toList();

    assertThat(listed).extracting(TonAddress::toRaw).isSorted().hasSize(3);
  }

  private static ExpectedTransfer transfer(String requestId, long subwallet, TonAddress destination, TonAddress master,
      long units) {
    return new ExpectedTransfer(requestId, "t", 0, subwallet, destination, 0L, requestId + " t",
        new JettonAmount(master.toFriendly(true, false), units(units)));
  }

  private static Map<Long, TonAddress> payers() {
    Map<Long, TonAddress> payers = new LinkedHashMap<>();
    payers.put(1L, address("payer 1"));
    payers.put(2L, address("payer 2"));
    return payers;
  }

  private static BigInteger units(long n) {
    return BigInteger.valueOf(n);
  }

  private static TonAddress address(String name) {
    try {
      return TonAddress.of(TonAddress.BASECHAIN, java.security.MessageDigest.getInstance("SHA-256")
          .digest(name.getBytes(StandardCharsets.UTF_8)));
    } catch (java.security.NoSuchAlgorithmException e) {
      throw new IllegalStateException(e);
    }
  }
}
