package org.tonpayouts.poller;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.apache.kafka.streams.KeyValue;
import org.apache.kafka.streams.processor.PunctuationType;
import org.apache.kafka.streams.processor.api.Processor;
import org.apache.kafka.streams.processor.api.ProcessorContext;
import org.apache.kafka.streams.processor.api.Record;
import org.apache.kafka.streams.state.KeyValueIterator;
import org.apache.kafka.streams.state.KeyValueStore;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.tonpayouts.schemas.Confirmation;
import org.tonpayouts.schemas.Submission;
import org.tonpayouts.schemas.Topics;
import org.tonpayouts.ton.api.MasterchainInfo;
import org.tonpayouts.ton.api.TonApi;

/**
 * The chain poller's watch list: adds every submitted message to its wallet's entry in
 * {@code watched-wallets}, and on a wall-clock round polls every wallet with pending messages
 * (concurrently, one transaction scan each) and publishes a {@link Confirmation} per verdict.
 *
 * <p>A round polls only when the masterchain seqno advanced since the last poll (nothing new can
 * be on chain otherwise), or every {@code fallbackRounds} rounds regardless. Store changes and
 * verdicts happen on the stream thread after the round's calls completed, so they commit with the
 * task's exactly-once transaction; a crash mid-round replays the round and reaches the same
 * verdicts.
 */
final class WatchListProcessor implements Processor<String, Submission, String, Confirmation> {
  private static final Logger log = LoggerFactory.getLogger(WatchListProcessor.class);

  private final Clock clock;
  private final PollerSettings settings;
  private final PollerMetrics metrics;
  private final WalletScanner scanner;
  private final MasterchainWatch masterchain;

  private ProcessorContext<String, Confirmation> context;
  private KeyValueStore<String, WatchedWallet> store;
  /** Keys of entries with pending messages; rebuilt from the (restored) store on the first round. */
  private Set<String> watched;
  /** Entries kept only for their remembered verdicts, and until when. */
  private Map<String, Instant> idleUntil;
  private long lastMasterchainSeqno = -1;
  private int roundsWithoutPoll;

  WatchListProcessor(TonApi api, MasterchainWatch masterchain, Clock clock, PollerSettings settings,
      PollerMetrics metrics) {
    this.masterchain = Objects.requireNonNull(masterchain, "masterchain");
    this.clock = Objects.requireNonNull(clock, "clock");
    this.settings = Objects.requireNonNull(settings, "settings");
    this.metrics = Objects.requireNonNull(metrics, "metrics");
    this.scanner = new WalletScanner(Objects.requireNonNull(api, "api"), settings, metrics);
  }

  @Override
  public void init(ProcessorContext<String, Confirmation> context) {
    this.context = context;
    this.store = context.getStateStore(ChainPollerTopology.WATCHED_WALLETS_STORE);
    this.watched = null;
    context.schedule(settings.interval(), PunctuationType.WALL_CLOCK_TIME, this::round);
  }

  @Override
  public void process(Record<String, Submission> record) {
    Submission s = record.value();
    if (s == null) {
      log.warn("submission without value ignored key={}", record.key());
      return;
    }
    String key = Topics.walletKey(s.subwalletId());
    if (!key.equals(record.key())) {
      log.warn("submission key differs from its subwallet key={} subwallet={} request={} hash={}",
          record.key(), s.subwalletId(), s.requestId(), s.messageHash());
    }
    WatchedWallet wallet = store.get(key);
    if (wallet == null) {
      wallet = WatchedWallet.empty(s.subwalletId(), s.walletAddress());
    } else if (!wallet.walletAddress().equals(s.walletAddress())) {
      log.warn("submission names another address for a watched subwallet subwallet={} watched={} submitted={} hash={}",
          s.subwalletId(), wallet.walletAddress(), s.walletAddress(), s.messageHash());
    }
    if (!s.recheck()) {
      var remembered = wallet.resolvedFor(s.messageHash());
      if (remembered.isPresent()) {
        // streams-app may have lost or refused the verdict: say it again rather than leave the wallet waiting
        Confirmation again = remembered.get().verdict();
        publish(key, new WalletRound.Verdict(Confirmation.of(again.requestId(), again.transferId(), again.subwalletId(),
            again.messageHash(), again.seqno(), again.status(), again.txHash(), again.lt(), again.utime(),
            again.feeNano(), again.reason(), clock.instant(), again.evidenceUtime(), again.returnedNano()),
            "remembered verdict"), context.currentSystemTimeMs());
        return;
      }
    }
    store.put(key, wallet.watch(s));
    if (watched != null) {
      watched.add(key);
      idleUntil.remove(key);
    }
    log.info("watching subwallet={} request={} transfer={} seqno={} hash={} validUntil={} attempt={} recheck={}",
        s.subwalletId(), s.requestId(), s.transferId(), s.seqno(), s.messageHash(), s.validUntil(), s.attempt(),
        s.recheck());
  }

  /** One punctuation: check for a new block, then poll all watched wallets at once. */
  private void round(long punctuatedAtMs) {
    if (watched == null) {
      loadIndex();
    }
    Instant now = clock.instant();
    forgetIdle(now);
    if (watched.isEmpty()) {
      return; // nothing to watch: no API call at all
    }
    if (!newBlockOrFallback(punctuatedAtMs)) {
      metrics.round("idle");
      return;
    }
    metrics.round("polled");
    roundsWithoutPoll = 0;
    pollAll(now);
  }

  private boolean newBlockOrFallback(long punctuatedAtMs) {
    roundsWithoutPoll++;
    try {
      MasterchainInfo info = masterchain.read(punctuatedAtMs)
          .get(settings.roundTimeout().toMillis(), TimeUnit.MILLISECONDS);
      if (info.seqno() != lastMasterchainSeqno) {
        lastMasterchainSeqno = info.seqno();
        return true;
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return false;
    } catch (ExecutionException | TimeoutException e) {
      log.warn("masterchain read failed error={}", WalletScanner.rootMessage(e));
    }
    return roundsWithoutPoll >= settings.fallbackRounds();
  }

  private void pollAll(Instant now) {
    Map<String, WatchedWallet> wallets = new LinkedHashMap<>();
    for (String key : List.copyOf(watched)) {
      WatchedWallet wallet = store.get(key);
      if (wallet == null || !wallet.needsPolling()) {
        watched.remove(key);
        continue;
      }
      wallets.put(key, wallet);
    }
    // every wallet's calls in flight at once; the stream thread waits once, for all, with a bound
    Map<String, CompletableFuture<WalletObservation>> calls = new HashMap<>();
    wallets.forEach((key, wallet) -> {
      metrics.walletPolled();
      calls.put(key, start(wallet, now));
    });
    awaitAll(calls.values());

    long ts = context.currentSystemTimeMs();
    for (Map.Entry<String, WatchedWallet> e : wallets.entrySet()) {
      String key = e.getKey();
      CompletableFuture<WalletObservation> call = calls.get(key);
      WalletObservation observation = outcome(e.getValue(), call);
      if (observation != null) {
        conclude(key, e.getValue(), observation, now, ts);
      }
    }
  }

  private CompletableFuture<WalletObservation> start(WatchedWallet wallet, Instant now) {
    try {
      return scanner.observe(wallet, now);
    } catch (RuntimeException e) {
      return CompletableFuture.failedFuture(e); // e.g. an address that does not parse
    }
  }

  private void awaitAll(Collection<CompletableFuture<WalletObservation>> calls) {
    try {
      CompletableFuture.allOf(calls.toArray(CompletableFuture[]::new))
          .get(settings.roundTimeout().toMillis(), TimeUnit.MILLISECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    } catch (ExecutionException | TimeoutException e) {
      // individual failures and stragglers are handled per wallet below
    }
  }

  private WalletObservation outcome(WatchedWallet wallet, CompletableFuture<WalletObservation> call) {
    if (!call.isDone()) {
      call.cancel(false);
      metrics.walletPollFailed();
      log.warn("wallet poll missed the round deadline subwallet={} timeoutMs={}", wallet.subwalletId(),
          settings.roundTimeout().toMillis());
      return null;
    }
    try {
      return call.getNow(null);
    } catch (RuntimeException e) {
      metrics.walletPollFailed();
      log.warn("wallet poll failed subwallet={} error={}", wallet.subwalletId(), WalletScanner.rootMessage(e));
      return null;
    }
  }

  private void conclude(String key, WatchedWallet wallet, WalletObservation observation, Instant now, long ts) {
    WalletRound.Result result = WalletRound.apply(wallet, observation, now, settings);
    for (WalletRound.Verdict v : result.verdicts()) {
      publish(key, v, ts);
    }
    WatchedWallet next = result.wallet();
    if (next == null) {
      store.delete(key);
      watched.remove(key);
    } else {
      if (!next.equals(wallet)) {
        store.put(key, next);
      }
      if (!next.needsPolling()) {
        watched.remove(key);
        idleUntil.put(key, next.rememberedUntil(settings.resolvedRetention()).orElse(now));
      }
    }
  }

  private void publish(String key, WalletRound.Verdict v, long ts) {
    Confirmation c = v.confirmation();
    metrics.verdict(c.status());
    log.info("verdict status={} subwallet={} request={} transfer={} seqno={} hash={} tx={} lt={} fee={} nodeTime={}"
        + " by={} reason={}", c.status(), c.subwalletId(), c.requestId(), c.transferId(), c.seqno(), c.messageHash(),
        c.txHash(), c.lt(), c.feeNano(), c.evidenceUtime(), v.how(), c.reason());
    context.forward(new Record<>(key, c, ts));
  }

  /** Deletes entries kept only for remembered verdicts once those are older than the retention. */
  private void forgetIdle(Instant now) {
    if (idleUntil.isEmpty()) {
      return;
    }
    List<String> due = new ArrayList<>();
    idleUntil.forEach((key, until) -> {
      if (!until.isAfter(now)) {
        due.add(key);
      }
    });
    for (String key : due) {
      idleUntil.remove(key);
      WatchedWallet wallet = store.get(key);
      if (wallet == null || wallet.needsPolling()) {
        continue;
      }
      WatchedWallet kept = wallet.forgetBefore(now, settings.resolvedRetention());
      if (kept.isIdle()) {
        store.delete(key);
      } else {
        store.put(key, kept);
        idleUntil.put(key, kept.rememberedUntil(settings.resolvedRetention()).orElse(now));
      }
    }
  }

  private void loadIndex() {
    watched = new HashSet<>();
    idleUntil = new HashMap<>();
    Duration retention = settings.resolvedRetention();
    try (KeyValueIterator<String, WatchedWallet> it = store.all()) {
      while (it.hasNext()) {
        KeyValue<String, WatchedWallet> kv = it.next();
        if (kv.value.needsPolling()) {
          watched.add(kv.key);
        } else {
          idleUntil.put(kv.key, kv.value.rememberedUntil(retention).orElse(Instant.EPOCH));
        }
      }
    }
    log.info("watch list loaded wallets={} idle={}", watched.size(), idleUntil.size());
  }
}
