package org.tonpayouts.streams.admin;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.streams.KafkaStreams;
import org.apache.kafka.streams.KeyQueryMetadata;
import org.apache.kafka.streams.StoreQueryParameters;
import org.apache.kafka.streams.errors.InvalidStateStoreException;
import org.apache.kafka.streams.state.QueryableStoreTypes;
import org.apache.kafka.streams.state.ReadOnlyKeyValueStore;
import org.tonpayouts.schemas.Topics;
import org.tonpayouts.streams.ledger.Ledger;
import org.tonpayouts.streams.ledger.sql.Pause;
import org.tonpayouts.streams.names.TopologyNames;
import org.tonpayouts.streams.wallet.CurrentTransfer;
import org.tonpayouts.streams.wallet.WalletHead;
import org.tonpayouts.streams.wallet.WalletTxProcessor;
import org.tonpayouts.ton.address.TonAddress;
import org.tonpayouts.ton.api.TonApi;
import org.tonpayouts.ton.api.WalletSnapshot;
import org.tonpayouts.ton.wallet.Subwallets;

/**
 * A wallet as operators see it: its queue and in-flight transfer from the {@code wallet-heads}
 * store (Kafka Streams interactive queries, when the wallet's partition is on this instance), the
 * ledger's highest applied seqno, and its seqno and balance on chain.
 */
final class WalletView {

  /** The wallet's state in this instance's stores, or why it is not here. */
  record StoreState(String source, Integer partition, String detail, Long queueDepth, Integer transferIndex,
                    InFlight inFlight, Long lastAppliedSeqno, Instant partlySettledSince) {}

  /** The transfer the wallet is paying, once a message was signed for it. */
  record InFlight(long seqno, List<String> messageHashes, int attempt, long validUntil, boolean awaitingVerdict,
                  Instant firstSubmittedAt, Instant recheckAt) {}

  /** What the TON API says about the wallet, or the error it gave. */
  record ChainState(String state, Long seqno, String balanceNano, Long syncUtime, Long lastTransactionLt,
                    String error) {}

  /**
   * @param paused the operator's pause that stops signing for this wallet (its own, else the
   *     deployment's), as the ledger holds it now; null when nothing stops it
   * @param held the wallet's transfer a rolling spend cap holds back (its later transfers wait behind
   *     it), as the ledger holds it now; null when none is held
   */
  record View(long subwalletId, String walletAddress, String walletAddressFriendly, StoreState store,
              Long ledgerHighestAppliedSeqno, ChainState chain, AdminViews.PauseView paused,
              AdminViews.HoldView held) {}

  private final KafkaStreams streams;
  private final Ledger ledger;
  private final Subwallets subwallets;
  private final TonApi api;
  private final Duration callTimeout;
  private final boolean testnet;

  WalletView(KafkaStreams streams, Ledger ledger, Subwallets subwallets, TonApi api, Duration callTimeout,
      boolean testnet) {
    this.streams = streams;
    this.ledger = ledger;
    this.subwallets = subwallets;
    this.api = api;
    this.callTimeout = callTimeout;
    this.testnet = testnet;
  }

  View of(long subwalletId) throws InterruptedException {
    TonAddress address = subwallets.address(subwalletId);
    return new View(subwalletId, address.toRaw(), address.toFriendly(true, testnet), store(Topics.walletKey(subwalletId)),
        ledger.queries().highestAppliedSeqno(address.toRaw()).orElse(null), chain(address), paused(subwalletId),
        held(subwalletId));
  }

  /** One transfer per wallet can be held: the wallet's next; the ones after it wait in its queue. */
  private AdminViews.HoldView held(long subwalletId) {
    return ledger.holds().waitingFor(subwalletId).map(AdminViews.HoldView::of).orElse(null);
  }

  private AdminViews.PauseView paused(long subwalletId) {
    List<Pause> active = ledger.pauses().active();
    return active.stream().filter(p -> p.covers(subwalletId) && !p.deploymentWide()).findFirst()
        .or(() -> active.stream().filter(Pause::deploymentWide).findFirst())
        .map(AdminViews.PauseView::of).orElse(null);
  }

  private StoreState store(String key) {
    KeyQueryMetadata meta = streams.queryMetadataForKey(TopologyNames.WALLET_HEADS_STORE, key,
        Serdes.String().serializer());
    if (meta == null || meta == KeyQueryMetadata.NOT_AVAILABLE || meta.partition() < 0) {
      return unknown(null, "the stream tasks are being assigned (state " + streams.state() + "): ask again shortly");
    }
    int partition = meta.partition();
    ReadOnlyKeyValueStore<String, WalletHead> store;
    try {
      store = streams.store(StoreQueryParameters.fromNameAndType(TopologyNames.WALLET_HEADS_STORE,
          QueryableStoreTypes.<String, WalletHead>keyValueStore()).withPartition(partition));
    } catch (InvalidStateStoreException e) {
      String owner = meta.activeHost() == null || meta.activeHost().port() < 0 ? "the instance that owns it"
          : "the admin API of " + meta.activeHost().host() + ":" + meta.activeHost().port();
      return new StoreState("other-instance", partition, "partition " + partition + " of " + Topics.PAYOUT_REQUESTS
          + " is not on this instance (or is being restored): ask " + owner, null, null, null, null, null);
    }
    WalletHead head;
    try {
      head = store.get(key);
    } catch (InvalidStateStoreException e) {
      return unknown(partition, "partition " + partition + " moved while reading: ask again");
    }
    if (head == null) {
      return new StoreState("this-instance", partition, "no request was ever queued for this wallet", 0L, null, null,
          null, null);
    }
    CurrentTransfer c = head.current();
    InFlight inFlight = c == null ? null : new InFlight(c.seqno(), c.hashes(), c.attempt(), c.validUntil(),
        c.awaitingVerdict(), c.firstSubmittedAt(), c.recheckAt());
    return new StoreState("this-instance", partition, null, head.queued(), head.hasWork() ? head.transferIndex() : null,
        inFlight, head.lastAppliedSeqno(), head.partlySettledSince());
  }

  private static StoreState unknown(Integer partition, String detail) {
    return new StoreState("unavailable", partition, detail, null, null, null, null, null);
  }

  private ChainState chain(TonAddress address) throws InterruptedException {
    try {
      WalletSnapshot s = api.getWalletSnapshot(address).get(callTimeout.toMillis(), TimeUnit.MILLISECONDS);
      return new ChainState(s.state(), s.seqno(), Long.toString(s.balance()), s.syncUtime(), s.lastTransactionLt(),
          null);
    } catch (ExecutionException e) {
      return new ChainState(null, null, null, null, null, "TON API: " + (e.getCause() != null
          ? e.getCause().getMessage() : e.getMessage()));
    } catch (TimeoutException e) {
      return new ChainState(null, null, null, null, null, "TON API: no answer within " + callTimeout.toMillis() + " ms");
    }
  }
}
