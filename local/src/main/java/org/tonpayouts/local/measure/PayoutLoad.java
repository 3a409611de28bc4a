package org.tonpayouts.local.measure;

import java.math.BigInteger;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.tonpayouts.local.audit.ExpectedTransfer;
import org.tonpayouts.local.audit.TransferRef;
import org.tonpayouts.schemas.JettonAmount;
import org.tonpayouts.schemas.PayoutRequest;
import org.tonpayouts.schemas.Topics;
import org.tonpayouts.schemas.TransferKind;
import org.tonpayouts.schemas.TransferRequest;
import org.tonpayouts.ton.address.TonAddress;

/**
 * The payout requests of a run, as a producer service would write them, and what each transfer
 * should pay: built by the demo's mix or the benchmark's single transfers ({@link Builder}), then
 * produced all at once and settled ({@link Settler}).
 */
public final class PayoutLoad {
  private static final Logger log = LoggerFactory.getLogger(PayoutLoad.class);

  private final List<PayoutRequest> requests;
  private final List<ExpectedTransfer> expected;
  private PayoutLoad(List<PayoutRequest> requests, List<ExpectedTransfer> expected) {
    this.requests = List.copyOf(requests);
    this.expected = List.copyOf(expected);
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

  /** Nanotons each recipient of a TON transfer should have received once everything is paid. */
  public Map<TonAddress, Long> expectedReceipts() {
    Map<TonAddress, Long> sums = new HashMap<>();
    expected.stream().filter(t -> !t.paysJetton()).forEach(t -> sums.merge(t.destination(), t.amountNano(), Long::sum));
    return sums;
  }

  /** The jetton transfer {@code ref} pays, or empty for a TON transfer. */
  public Optional<JettonAmount> jettonOf(TransferRef ref) {
    return expected.stream().filter(t -> t.ref().equals(ref)).findFirst().map(ExpectedTransfer::jetton);
  }

  /** How many of the transfers pay a jetton. */
  public int jettonTransferCount() {
    return (int) expected.stream().filter(ExpectedTransfer::paysJetton).count();
  }

  /** Jetton base units each recipient should have received once every jetton transfer is delivered. */
  public Map<TonAddress, BigInteger> expectedJettonReceipts() {
    Map<TonAddress, BigInteger> sums = new HashMap<>();
    expected.stream().filter(ExpectedTransfer::paysJetton)
        .forEach(t -> sums.merge(t.destination(), t.jetton().amount(), BigInteger::add));
    return sums;
  }

  /** Writes every request to {@code payout.requests}, keyed by subwallet, and waits until the broker has them. */
  public void produce(String bootstrapServers) {
    produce(bootstrapServers, Map.of());
  }

  /**
   * {@link #produce(String)} as a producer service of a secured cluster does it: with its own client
   * settings ({@code security.protocol}, {@code sasl.*}, {@code ssl.*}) under its own principal.
   */
  public void produce(String bootstrapServers, Map<String, ?> clientSettings) {
    Properties props = new Properties();
    props.putAll(clientSettings);
    props.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers);
    props.put(ProducerConfig.ACKS_CONFIG, "all");
    props.put(ProducerConfig.LINGER_MS_CONFIG, 5);
    props.put(ProducerConfig.CLIENT_ID_CONFIG, "payouts-demo-load");
    try (KafkaProducer<String, PayoutRequest> producer = new KafkaProducer<>(props,
        Topics.PAYOUT_REQUESTS.keySerde().serializer(), Topics.PAYOUT_REQUESTS.valueSerde().serializer())) {
      for (PayoutRequest request : requests) {
        // the records' own JSON is what a producer writes: a jetton transfer leaves amountNano out
        producer.send(new ProducerRecord<>(Topics.PAYOUT_REQUESTS.name(), request.walletKey(), request));
      }
      producer.flush();
    }
    log.info("load produced requests={} transfers={}", requests.size(), expected.size());
  }

  /**
   * One transfer of a request to build: what it pays whom.
   *
   * @param amountNano nanotons of a TON transfer; ignored for a jetton transfer (intake attaches its TON)
   * @param jetton the jetton and amount it pays instead of TON, or null
   */
  public record Leg(String transferId, TransferKind kind, TonAddress destination, long amountNano,
                    JettonAmount jetton) {
    /** A TON transfer. */
    public Leg(String transferId, TransferKind kind, TonAddress destination, long amountNano) {
      this(transferId, kind, destination, amountNano, null);
    }

    /** A jetton transfer: {@code jetton}'s amount of its master, the TON attached at intake. */
    public static Leg jetton(String transferId, TransferKind kind, TonAddress destination, JettonAmount jetton) {
      return new Leg(transferId, kind, destination, 0, java.util.Objects.requireNonNull(jetton, "jetton"));
    }
  }

  /** Collects the requests of a load, each transfer with its comment {@code "<requestId> <transferId>"}. */
  public static final class Builder {
    private final boolean testnet;
    private final Instant createdAt;
    private final List<PayoutRequest> requests = new ArrayList<>();
    private final List<ExpectedTransfer> expected = new ArrayList<>();

    /**
     * @param testnet writes destinations in their testnet form
     * @param createdAt every request's {@code createdAt}
     */
    public Builder(boolean testnet, Instant createdAt) {
      this.testnet = testnet;
      this.createdAt = createdAt;
    }

    public void add(String requestId, long subwalletId, List<Leg> legs) {
      List<TransferRequest> transfers = new ArrayList<>();
      for (int i = 0; i < legs.size(); i++) {
        Leg leg = legs.get(i);
        String comment = requestId + " " + leg.transferId();
        // non-bounceable: recipients are fresh, uninitialized accounts that keep what they are sent
        String destination = leg.destination().toFriendly(false, testnet);
        transfers.add(leg.jetton() == null
            ? new TransferRequest(leg.transferId(), leg.kind(), destination, leg.amountNano(), comment, null)
            : TransferRequest.ofJetton(leg.transferId(), leg.kind(), destination, leg.jetton(), comment));
        expected.add(new ExpectedTransfer(requestId, leg.transferId(), i, subwalletId, leg.destination(),
            leg.jetton() == null ? leg.amountNano() : 0, comment, leg.jetton()));
      }
      requests.add(PayoutRequest.of(requestId, subwalletId, transfers, createdAt));
    }

    public PayoutLoad build() {
      return new PayoutLoad(requests, expected);
    }
  }
}
