package org.tonpayouts.poller;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.groups.Tuple.tuple;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.apache.kafka.streams.processor.api.MockProcessorContext;
import org.apache.kafka.streams.state.KeyValueIterator;
import org.apache.kafka.streams.state.KeyValueStore;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.tonpayouts.schemas.Confirmation;
import org.tonpayouts.schemas.ConfirmationStatus;

/**
 * The watch list's stores: a wallet's record stays the same size however many verdicts it
 * remembers (each is a record of its own, written once and deleted once), and a fresh reader
 * (a restarted task) sees the wallet exactly as it was written, including a record of the layout
 * that kept the verdicts inside.
 */
class WatchedWalletsTest {
  private static final String WALLET = "0:" + "a".repeat(64);
  private KeyValueStore<String, WatchedWallet> wallets;
  private KeyValueStore<String, ResolvedTransfer> resolved;

  @BeforeEach
  void stores() {
    WatchListStores stores = WatchListStores.openOn(new MockProcessorContext<>().getStateStoreContext());
    wallets = stores.wallets();
    resolved = stores.resolved();
  }

  private static ResolvedTransfer verdict(int n) {
    String hash = String.format("%064x", n);
    Confirmation c = Confirmation.of("req-" + n, "t-0", 7, hash, n, ConfirmationStatus.CONFIRMED,
        String.format("%064x", 1_000_000 + n), (long) n, 1_700_000_000L + n, 1_000L, null,
        Instant.parse("2026-11-23T10:00:00Z").plusSeconds(n));
    return new ResolvedTransfer(List.of(hash), c, Instant.parse("2026-11-23T10:00:00Z").plusSeconds(n));
  }

  private static WatchedWallet remembering(List<ResolvedTransfer> verdicts) {
    return WatchedWallet.empty(7, WALLET).with(List.of(), null, verdicts, List.of(), List.of());
  }

  private List<String> resolvedKeys() {
    List<String> keys = new ArrayList<>();
    try (KeyValueIterator<String, ResolvedTransfer> it = resolved.all()) {
      it.forEachRemaining(kv -> keys.add(kv.key));
    }
    return keys;
  }

  @Test
  void shouldKeepTheWalletsRecordSmallAndWriteEachVerdictOnce() {
    WatchedWallets store = new WatchedWallets(wallets, resolved);
    List<ResolvedTransfer> verdicts = new ArrayList<>();
    for (int n = 1; n <= 200; n++) {
      verdicts.add(verdict(n));
      store.put("7", remembering(verdicts));
    }
    // forgetting the oldest deletes its record only
    store.put("7", remembering(verdicts.subList(50, 200)));

    assertThat(wallets.get("7").resolved()).as("the wallet's own record carries no verdicts").isEmpty();
    assertThat(resolvedKeys()).hasSize(150).allMatch(k -> k.startsWith("7/"));
    assertThat(store.get("7").resolved()).containsExactlyElementsOf(verdicts.subList(50, 200));

    WatchedWallets restarted = new WatchedWallets(wallets, resolved);
    assertThat(restarted.get("7")).isEqualTo(store.get("7"));
    assertThat(restarted.get("7").resolvedFor(verdict(120).verdict().messageHash())).contains(verdict(120));
    assertThat(restarted.all()).extracting(kv -> kv.key).containsExactly("7");
  }

  @Test
  void shouldDeleteAWalletsVerdictsWithIt() {
    WatchedWallets store = new WatchedWallets(wallets, resolved);
    store.put("7", remembering(List.of(verdict(1), verdict(2))));
    store.put("8", remembering(List.of(verdict(3))));

    new WatchedWallets(wallets, resolved).delete("7");

    assertThat(wallets.get("7")).isNull();
    assertThat(resolvedKeys()).singleElement().asString().startsWith("8/");
    assertThat(new WatchedWallets(wallets, resolved).get("8").resolved()).containsExactly(verdict(3));
  }

  @Test
  void shouldReadARecordThatCarriesItsVerdictsInsideAndMoveThemOutOnTheNextWrite() {
    wallets.put("7", remembering(List.of(verdict(1), verdict(2)))); // as written before the verdicts had a store
    WatchedWallets store = new WatchedWallets(wallets, resolved);

    WatchedWallet read = store.get("7");
    assertThat(read.resolved()).containsExactly(verdict(1), verdict(2));
    assertThat(store.all()).extracting(kv -> kv.value).containsExactly(read);

    store.put("7", remembering(List.of(verdict(2), verdict(3))));

    assertThat(wallets.get("7").resolved()).isEmpty();
    assertThat(resolvedKeys()).hasSize(2);
    assertThat(new WatchedWallets(wallets, resolved).get("7").resolved()).containsExactly(verdict(2), verdict(3));
  }

  @Test
  void shouldNotTakeAnotherWalletsVerdictsForItsOwn() {
    WatchedWallets store = new WatchedWallets(wallets, resolved);
    store.put("1", remembering(List.of(verdict(1))));
    store.put("10", remembering(List.of(verdict(10))));
    store.put("100", remembering(List.of(verdict(100))));

    WatchedWallets restarted = new WatchedWallets(wallets, resolved);
    assertThat(restarted.all()).extracting(kv -> kv.key, kv -> kv.value.resolved())
        .containsExactlyInAnyOrder(
            tuple("1", List.of(verdict(1))),
            tuple("10", List.of(verdict(10))),
            tuple("100", List.of(verdict(100))));
  }
}
