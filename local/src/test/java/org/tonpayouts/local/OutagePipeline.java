package org.tonpayouts.local;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import java.util.stream.LongStream;
import org.tonpayouts.devnet.Devnet;
import org.tonpayouts.local.audit.ExpectedTransfer;
import org.tonpayouts.local.audit.TransferRef;
import org.tonpayouts.local.measure.ObservedSettlement;
import org.tonpayouts.local.measure.PayoutLoad;
import org.tonpayouts.local.measure.SettlementWatcher;
import org.tonpayouts.local.stack.WalletSet;
import org.tonpayouts.runtime.PayoutsConfig;
import org.tonpayouts.runtime.ops.OpsServer;
import org.tonpayouts.schemas.SettlementStatus;
import org.tonpayouts.schemas.TransferKind;
import org.tonpayouts.streams.ledger.Ledger;
import org.tonpayouts.streams.ledger.sql.LedgerRow;
import org.tonpayouts.streams.ledger.sql.LedgerStatus;
import org.tonpayouts.ton.address.TonAddress;

/**
 * What the pipeline tests of an outage (issue 27: the ledger, the brokers) share: the apps'
 * configuration, loads that pay recipients of their own, the probes of readiness and of the
 * wallets' seqnos, and the closing check that every transfer was paid exactly once.
 */
final class OutagePipeline {
  static final Duration DEADLINE = Duration.ofSeconds(60);
  static final long AMOUNT = 10_000_000L;
  /** How long the wallets' seqnos must stand still while a part is away. */
  static final Duration STILL_FOR = Duration.ofSeconds(2);

  private OutagePipeline() {}

  /** Both apps' configuration, with the state of Kafka Streams under {@code tmp}. */
  static PayoutsConfig config(Path tmp, String bootstrap, String runId, String tonApi, String jdbcUrl, String user)
      throws Exception {
    return config(tmp, bootstrap, runId, tonApi, jdbcUrl, user, Map.of());
  }

  /** {@link #config(Path, String, String, String, String, String)} with {@code more} keys set over it. */
  static PayoutsConfig config(Path tmp, String bootstrap, String runId, String tonApi, String jdbcUrl, String user,
      Map<String, String> more) throws Exception {
    Map<String, String> values = new HashMap<>();
    values.put(PayoutsConfig.KAFKA_BOOTSTRAP_SERVERS_CONFIG, bootstrap);
    values.put(PayoutsConfig.STREAMS_APPLICATION_ID_CONFIG, runId + "-streams");
    values.put(PayoutsConfig.POLLER_APPLICATION_ID_CONFIG, runId + "-poller");
    values.put(PayoutsConfig.STREAMS_STATE_DIR_CONFIG, Files.createDirectories(tmp.resolve("state")).toString());
    values.put(PayoutsConfig.POSTGRES_URL_CONFIG, jdbcUrl);
    values.put(PayoutsConfig.POSTGRES_USER_CONFIG, user);
    values.put(PayoutsConfig.TON_API_URL_CONFIG, tonApi);
    values.put(PayoutsConfig.TON_API_RPS_CONFIG, "100000");
    values.put(PayoutsConfig.VERDICT_MAC_KEYS_CONFIG, "outage:" + "5e".repeat(32));
    values.putAll(more);
    return new PayoutsConfig(values);
  }

  /**
   * {@code perWallet} one-transfer requests per wallet, in rounds over the wallets, each to a
   * recipient of its own after the {@code earlierPerWallet} requests per wallet of the loads before,
   * so that what was paid of each load can be read on chain.
   */
  static PayoutLoad load(WalletSet wallets, String prefix, int perWallet, int earlierPerWallet) {
    int walletCount = wallets.subwalletIds().size();
    PayoutLoad.Builder b = new PayoutLoad.Builder(false, Instant.now());
    int n = 0;
    for (int round = 0; round < perWallet; round++) {
      for (long subwallet : wallets.subwalletIds()) {
        b.add(prefix + "-" + n, subwallet, List.of(new PayoutLoad.Leg("payout", TransferKind.PAYOUT,
            wallets.recipient(earlierPerWallet * walletCount + n), AMOUNT)));
        n++;
      }
    }
    return b.build();
  }

  static List<TransferRef> refs(PayoutLoad... loads) {
    return Arrays.stream(loads).flatMap(l -> l.expected().stream()).map(ExpectedTransfer::ref).toList();
  }

  /**
   * Waits until no wallet's seqno has moved for {@link #STILL_FOR} and returns them: messages
   * recorded before the outage may still be sent and land, signing anything new may not.
   */
  static Map<Long, Long> awaitSeqnosStill(Devnet devnet, WalletSet wallets, String whileWhat) {
    Map<Long, Long> last = new HashMap<>(seqnos(devnet, wallets));
    Instant[] since = {Instant.now()};
    await("the wallets' seqnos stand still while " + whileWhat).atMost(DEADLINE)
        .pollInterval(Duration.ofMillis(100)).until(() -> {
          Map<Long, Long> now = seqnos(devnet, wallets);
          if (!now.equals(last)) {
            last.clear();
            last.putAll(now);
            since[0] = Instant.now();
          }
          return !Instant.now().isBefore(since[0].plus(STILL_FOR));
        });
    return last;
  }

  static Map<Long, Long> seqnos(Devnet devnet, WalletSet wallets) {
    return wallets.subwalletIds().stream().collect(Collectors.toMap(id -> id, id -> devnet.seqno(wallets.address(id))));
  }

  static HttpResponse<String> ready(OpsServer ops) throws Exception {
    return probe(ops, "/health/ready");
  }

  static HttpResponse<String> live(OpsServer ops) throws Exception {
    return probe(ops, "/health/live");
  }

  private static HttpResponse<String> probe(OpsServer ops, String path) throws Exception {
    return HttpClient.newHttpClient().send(HttpRequest.newBuilder(
        URI.create("http://127.0.0.1:" + ops.port() + path)).timeout(Duration.ofSeconds(10)).build(),
        HttpResponse.BodyHandlers.ofString());
  }

  /**
   * One SETTLED settlement and one CONFIRMED row per transfer, seqnos 0 to {@code perWallet}-1 in
   * request order, one external transaction per transfer on chain, exact balances.
   */
  static void verifyEachPaidOnce(Ledger ledger, Devnet devnet, WalletSet wallets, SettlementWatcher watcher,
      int perWallet, PayoutLoad... loads) {
    Map<Long, List<Long>> seqnos = new HashMap<>();
    Map<TonAddress, Long> receipts = new HashMap<>();
    for (PayoutLoad load : loads) {
      for (ExpectedTransfer t : load.expected()) {
        List<ObservedSettlement> seen = watcher.settlements(t.ref());
        assertThat(seen).as("settlements of %s", t.ref()).hasSize(1);
        assertThat(seen.get(0).settlement().status()).isEqualTo(SettlementStatus.SETTLED);
        List<LedgerRow> confirmed = ledger.queries().attempts(t.requestId(), t.transferId()).stream()
            .filter(r -> r.status() == LedgerStatus.CONFIRMED).toList();
        assertThat(confirmed).as("confirmed rows of %s", t.ref()).hasSize(1);
        seqnos.computeIfAbsent(t.subwalletId(), id -> new ArrayList<>()).add(confirmed.get(0).seqno());
        receipts.merge(t.destination(), t.amountNano(), Long::sum);
      }
    }
    List<Long> expected = LongStream.range(0, perWallet).boxed().toList();
    seqnos.forEach((id, list) -> assertThat(list).as("seqnos of subwallet %d", id).isEqualTo(expected));
    wallets.subwalletIds().forEach(id -> assertThat(devnet.transactions(wallets.address(id)).stream()
        .filter(tx -> tx.inMsg().external()).count()).as("external transactions of subwallet %d", id)
        .isEqualTo(perWallet));
    Set<TonAddress> paid = receipts.keySet();
    paid.forEach(to -> assertThat(devnet.balance(to)).as("balance of %s", to.toRaw()).isEqualTo(receipts.get(to)));
  }
}
