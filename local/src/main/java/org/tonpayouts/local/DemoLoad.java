package org.tonpayouts.local;

import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.tonpayouts.schemas.PayoutRequest;
import org.tonpayouts.schemas.Topics;
import org.tonpayouts.schemas.TransferKind;
import org.tonpayouts.schemas.TransferRequest;
import org.tonpayouts.ton.address.TonAddress;

/**
 * The payout requests of a run, as a producer service would write them: the demo mix (payouts,
 * about a third followed by a commission sweep to the treasury) or the benchmark's single
 * transfers, and what each transfer should pay.
 */
public final class DemoLoad {
  private static final Logger log = LoggerFactory.getLogger(DemoLoad.class);

  /** Demo payouts are 0.01 to 0.05 TON. */
  public static final long PAYOUT_UNIT_NANO = 10_000_000L;
  /** A commission sweep is 0.001 TON. */
  public static final long COMMISSION_NANO = 1_000_000L;
  /** Every benchmark transfer is 0.001 TON. */
  public static final long BENCH_AMOUNT_NANO = 1_000_000L;

  private final List<PayoutRequest> requests;
  private final List<ExpectedTransfer> expected;

  private DemoLoad(List<PayoutRequest> requests, List<ExpectedTransfer> expected) {
    this.requests = List.copyOf(requests);
    this.expected = List.copyOf(expected);
  }

  /**
   * {@code requestCount} requests spread round-robin over the wallets; every third one (the first
   * included) pays a recipient and then sweeps a commission to the treasury.
   *
   * @param runId makes request ids unique per run
   * @param testnet writes destinations in their testnet form
   */
  public static DemoLoad demo(WalletSet wallets, int requestCount, String runId, boolean testnet, Instant createdAt) {
    if (requestCount < 1) {
      throw new IllegalArgumentException("at least one request is needed, got " + requestCount);
    }
    Builder b = new Builder(testnet, createdAt);
    for (int i = 0; i < requestCount; i++) {
      long subwallet = wallets.subwalletId(i % wallets.count());
      String requestId = runId + "-" + i;
      List<Leg> legs = new ArrayList<>();
      legs.add(new Leg("payout", TransferKind.PAYOUT, wallets.recipient(i), PAYOUT_UNIT_NANO * (1 + i % 5)));
      if (i % 3 == 0) {
        legs.add(new Leg("commission", TransferKind.COMMISSION_SWEEP, wallets.treasury(), COMMISSION_NANO));
      }
      b.add(requestId, subwallet, legs);
    }
    return b.build();
  }

  /**
   * {@code perWallet} single-transfer requests for every wallet, produced in rounds (one request per
   * wallet, then the next), so every wallet has work from the start.
   */
  public static DemoLoad bench(WalletSet wallets, int perWallet, String runId, boolean testnet, Instant createdAt) {
    if (perWallet < 1) {
      throw new IllegalArgumentException("at least one transfer per wallet is needed, got " + perWallet);
    }
    Builder b = new Builder(testnet, createdAt);
    int n = 0;
    for (int round = 0; round < perWallet; round++) {
      for (int w = 0; w < wallets.count(); w++) {
        b.add(runId + "-" + round + "-" + w, wallets.subwalletId(w),
            List.of(new Leg("payout", TransferKind.PAYOUT, wallets.recipient(n++), BENCH_AMOUNT_NANO)));
      }
    }
    return b.build();
  }

  public List<PayoutRequest> requests() {
    return requests;
  }

  public List<ExpectedTransfer> expected() {
    return expected;
  }

  public int requestCount() {
    return requests.size();
  }

  public int transferCount() {
    return expected.size();
  }

  /** The longest queue of one wallet, in transfers: a run takes at least this many blocks. */
  public int maxTransfersPerWallet() {
    Map<Long, Integer> perWallet = new HashMap<>();
    expected.forEach(t -> perWallet.merge(t.subwalletId(), 1, Integer::sum));
    return perWallet.isEmpty() ? 0 : Collections.max(perWallet.values());
  }

  /** Nanotons each recipient should have received once everything is paid. */
  public Map<TonAddress, Long> expectedReceipts() {
    Map<TonAddress, Long> sums = new HashMap<>();
    expected.forEach(t -> sums.merge(t.destination(), t.amountNano(), Long::sum));
    return sums;
  }

  /** Writes every request to {@code payout.requests}, keyed by subwallet, and waits until the broker has them. */
  public void produce(String bootstrapServers) {
    Properties props = new Properties();
    props.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers);
    props.put(ProducerConfig.ACKS_CONFIG, "all");
    props.put(ProducerConfig.LINGER_MS_CONFIG, 5);
    props.put(ProducerConfig.CLIENT_ID_CONFIG, "payouts-demo-load");
    try (KafkaProducer<String, PayoutRequest> producer = new KafkaProducer<>(props,
        Topics.PAYOUT_REQUESTS.keySerde().serializer(), Topics.PAYOUT_REQUESTS.valueSerde().serializer())) {
      for (PayoutRequest request : requests) {
        producer.send(new ProducerRecord<>(Topics.PAYOUT_REQUESTS.name(), request.walletKey(), request));
      }
      producer.flush();
    }
    log.info("load produced requests={} transfers={}", requests.size(), expected.size());
  }

  private record Leg(String transferId, TransferKind kind, TonAddress destination, long amountNano) {}

  private static final class Builder {
    private final boolean testnet;
    private final Instant createdAt;
    private final List<PayoutRequest> requests = new ArrayList<>();
    private final List<ExpectedTransfer> expected = new ArrayList<>();

    Builder(boolean testnet, Instant createdAt) {
      this.testnet = testnet;
      this.createdAt = createdAt;
    }

    void add(String requestId, long subwalletId, List<Leg> legs) {
      List<TransferRequest> transfers = new ArrayList<>();
      for (int i = 0; i < legs.size(); i++) {
        Leg leg = legs.get(i);
        // non-bounceable: recipients are fresh, uninitialized accounts that keep what they are sent
        transfers.add(new TransferRequest(leg.transferId(), leg.kind(), leg.destination().toFriendly(false, testnet),
            leg.amountNano(), requestId + " " + leg.transferId(), null));
        expected.add(new ExpectedTransfer(requestId, leg.transferId(), i, subwalletId, leg.destination(),
            leg.amountNano()));
      }
      requests.add(PayoutRequest.of(requestId, subwalletId, transfers, createdAt));
    }

    DemoLoad build() {
      return new DemoLoad(requests, expected);
    }
  }
}
