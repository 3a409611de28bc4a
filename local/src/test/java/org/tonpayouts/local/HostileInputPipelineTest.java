package org.tonpayouts.local;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;
import static org.tonpayouts.local.IntakeStack.TON;

import java.io.ByteArrayOutputStream;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.tonpayouts.local.audit.TransferRef;
import org.tonpayouts.runtime.RejectionProductionExceptionHandler;
import org.tonpayouts.schemas.Rejected;
import org.tonpayouts.ton.address.TonAddress;

/**
 * Hostile {@code payout.requests} records against the whole pipeline on a real broker, written as
 * raw bytes the way a hostile or broken producer would: none is paid, each is rejected once with a
 * reason in a record far below the topic's size limit, the valid request behind it on the same
 * partition settles once (its comment landing on chain byte for byte), and no stream thread dies.
 * Jetton transfers intake must refuse (a jetton it does not pay, amounts over its limits or not
 * base units, TON named beside the jetton) move no jetton, and the good jetton request behind each
 * is paid.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class HostileInputPipelineTest {
  private static final Logger log = LoggerFactory.getLogger(HostileInputPipelineTest.class);
  /** A serialized rejection (key and value) never comes near Kafka's 1 MiB default record limit. */
  private static final int MAX_RECORD_BYTES = Rejected.MAX_SERIALIZED_BYTES + 4 * Rejected.MAX_KEY_CHARS;

  @TempDir
  static Path tmp;

  private IntakeStack stack;
  private final Map<TransferRef, String> commentsByRef = new LinkedHashMap<>();

  @BeforeAll
  void startPipeline() throws Exception {
    stack = new IntakeStack(tmp);
  }

  @AfterAll
  void stopPipeline() throws Exception {
    if (stack != null) {
      stack.close();
    }
  }

  /** One hostile input: where it goes, its bytes, and a part of the reason it must get ("" for any). */
  private record Hostile(String name, int wallet, String key, byte[] bytes, String expected) {}

  private String walletKey(int wallet) {
    return Long.toString(stack.wallets.subwalletId(wallet));
  }

  /** A request from {@code wallet} with the given transfers JSON. */
  private String requestJson(String requestId, int wallet, String transfers) {
    return "{\"schemaVersion\":1,\"requestId\":\"" + requestId + "\",\"subwalletId\":" + stack.wallets.subwalletId(wallet)
        + ",\"transfers\":[" + transfers + "],\"createdAt\":\"2026-03-01T12:00:00Z\"}";
  }

  /** A transfer to a recipient hostile input only ever names; {@code comment} is a JSON literal or null. */
  private String transferJson(String id, int recipient, String amount, String comment) {
    return "{\"transferId\":\"" + id + "\",\"kind\":\"PAYOUT\",\"destination\":\""
        + stack.wallets.recipient(recipient).toFriendly(false, false) + "\",\"amountNano\":\"" + amount + "\""
        + (comment == null ? "" : ",\"comment\":" + comment) + "}";
  }

  /**
   * A jetton transfer to a recipient hostile input only ever names: {@code master} pays
   * {@code amount} (a JSON literal, so a hostile one need not be a string); {@code extra} is more
   * fields, spliced in ("" for none).
   */
  private String jettonTransferJson(String id, int recipient, TonAddress master, String amount, String extra) {
    return "{\"transferId\":\"" + id + "\",\"kind\":\"WITHDRAWAL\",\"destination\":\""
        + stack.wallets.recipient(recipient).toFriendly(false, false) + "\",\"jetton\":{\"master\":\""
        + master.toFriendly(true, false) + "\",\"amount\":" + amount + "}" + extra + "}";
  }

  /** Base units as a JSON string of digits, as a producer writes them. */
  private static String quoted(BigInteger units) {
    return "\"" + units + "\"";
  }

  private byte[] requestBytes(String requestId, int wallet, String transfers) {
    return requestJson(requestId, wallet, transfers).getBytes(StandardCharsets.UTF_8);
  }

  /** A well-formed request whose comment is {@code raw} bytes, spliced in unescaped. */
  private byte[] withRawComment(String requestId, int wallet, byte[] raw) {
    String[] parts = requestJson(requestId, wallet, transferJson("t", 6, "1000000", "\"MEMO\"")).split("MEMO");
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    out.writeBytes(parts[0].getBytes(StandardCharsets.UTF_8));
    out.writeBytes(raw);
    out.writeBytes(parts[1].getBytes(StandardCharsets.UTF_8));
    return out.toByteArray();
  }

  private static byte[] unknownProperties(int count) {
    StringBuilder json = new StringBuilder("{");
    for (int i = 0; i < count; i++) {
      json.append(i == 0 ? "" : ",").append("\"p").append(i).append("\":1");
    }
    return json.append("}").toString().getBytes(StandardCharsets.UTF_8);
  }

  private static byte[] filled(int length, int value) {
    byte[] bytes = new byte[length];
    Arrays.fill(bytes, (byte) value);
    return bytes;
  }

  private List<Hostile> knownWaysPast() {
    StringBuilder poison = new StringBuilder();
    for (int i = 0; i < 20_000; i++) {
      poison.append(i == 0 ? "{}" : ",{}");
    }
    String one = transferJson("t", 7, "1000000", "\"memo\"");
    return List.of(
        new Hostile("poison pill: 20,000 empty transfers", 0, walletKey(0), requestBytes("poison", 0, poison.toString()),
            "$.transfers: must have at most 4 items but found 20000"),
        new Hostile("1 MB of control bytes", 1, walletKey(1), filled(1_000_000, 0x01),
            "$: value is 1000000 bytes; a payout request is at most 65536 bytes"),
        new Hostile("1 MB of invalid UTF-8", 2, walletKey(2), filled(1_000_000, 0xFF),
            "$: value is 1000000 bytes; a payout request is at most 65536 bytes"),
        new Hostile("60 KB of control bytes", 0, walletKey(0), filled(60_000, 0x01), "$: not valid JSON"),
        new Hostile("60 KB of invalid UTF-8", 1, walletKey(1), filled(60_000, 0xFF),
            "$: not UTF-8 at byte offset 0: byte FF never occurs in UTF-8"),
        new Hostile("5,000 unknown properties", 2, walletKey(2), unknownProperties(5_000), "more problems"),
        new Hostile("UTF-16LE with a byte-order mark", 0, walletKey(0),
            ("\uFEFF" + requestJson("utf16", 0, one)).getBytes(StandardCharsets.UTF_16LE),
            "a UTF-16 byte-order mark (FF FE)"),
        new Hostile("overlong sequence in a comment", 1, walletKey(1),
            withRawComment("overlong", 1, new byte[] {'a', (byte) 0xC0, (byte) 0xAF}), "overlong encoding (C0 AF)"),
        new Hostile("encoded surrogate in a comment", 2, walletKey(2),
            withRawComment("cesu", 2, new byte[] {(byte) 0xED, (byte) 0xA0, (byte) 0x80}),
            "encoded UTF-16 surrogate (ED A0 80)"),
        new Hostile("lone \\ud800 escape in a comment", 0, walletKey(0),
            requestBytes("lone", 0, transferJson("t", 6, "1000000", "\"memo \\ud800\"")),
            "$.transfers[0].comment: has an unpaired surrogate escape \\ud800 at character 5"),
        new Hostile("CR LF in a comment", 1, walletKey(1),
            requestBytes("crlf", 1, transferJson("t", 7, "1000000", "\"deposit 42\\r\\nfake line\"")),
            "control character U+000D (CARRIAGE RETURN (CR)) at position 10 (and 1 more)"),
        new Hostile("ESC in a comment", 2, walletKey(2),
            requestBytes("esc", 2, transferJson("t", 8, "1000000", "\"\\u001b[31mred\"")),
            "control character U+001B (ESCAPE) at position 0"),
        new Hostile("U+202E in a comment", 0, walletKey(0),
            requestBytes("rlo", 0, transferJson("t", 9, "1000000", "\"memo \u202e24 tisoped\"")),
            "bidirectional control character U+202E (RIGHT-TO-LEFT OVERRIDE) at position 5"),
        new Hostile("U+200B in a comment", 2, walletKey(2),
            requestBytes("zwsp", 2, transferJson("t", 10, "1000000", "\"memo\u200b42\"")),
            "invisible character U+200B (ZERO WIDTH SPACE) at position 4"),
        new Hostile("U+200F in a comment", 0, walletKey(0),
            requestBytes("rlm", 0, transferJson("t", 6, "1000000", "\"\u200fmemo\"")),
            "bidirectional control character U+200F (RIGHT-TO-LEFT MARK) at position 0"),
        new Hostile("a transfer above the limit", 1, walletKey(1),
            requestBytes("too-much", 1, transferJson("t", 10, Long.toString(IntakeStack.MAX_TRANSFER_NANO + 1), null)),
            "is above the per-transfer limit of 10000000000 nanotons (10 TON) (transfer.max.amount.nano)"),
        new Hostile("a request above the total", 2, walletKey(2),
            requestBytes("too-much-total", 2, transferJson("a", 6, Long.toString(8 * TON), null) + ","
                + transferJson("b", 7, Long.toString(8 * TON), null)),
            "above the per-request limit of 15000000000 nanotons (15 TON) (request.max.total.nano)"),
        new Hostile("no key", 0, null, requestBytes("no-key", 0, one), "record key: no key"),
        new Hostile("a destination in workchain 5", 1, walletKey(1),
            requestBytes("wc5", 1, one.replace(stack.wallets.recipient(7).toFriendly(false, false), "5:" + "ab".repeat(32))),
            "$.transfers[0].destination: workchain 5 is not supported"),
        new Hostile("a testnet-flagged destination on mainnet", 0, walletKey(0),
            requestBytes("testnet-flag", 0, one.replace(stack.wallets.recipient(7).toFriendly(false, false),
                stack.wallets.recipient(7).toFriendly(false, true))),
            "$.transfers[0].destination: address '" + stack.wallets.recipient(7).toFriendly(false, true)
                + "' is flagged for testnet"),
        new Hostile("60,000 nested arrays", 2, walletKey(2), "[".repeat(60_000).getBytes(StandardCharsets.UTF_8),
            "Document nesting depth"));
  }

  private static final String[] VALID_COMMENTS = {"payout", "deal 42\tpaid", "привет 👋 € 中文", null, "x".repeat(1000)};

  @Test
  void shouldRejectEveryKnownWayPastTheValidatorAndSettleTheNextRequestOfThePartition() {
    double rejectedBefore = stack.metrics.count("payout.requests.rejected");
    List<Hostile> cases = knownWaysPast();
    Map<Hostile, RejectionWatcher.Source> sources = new LinkedHashMap<>();
    List<TransferRef> valid = new ArrayList<>();
    for (int i = 0; i < cases.size(); i++) {
      Hostile hostile = cases.get(i);
      sources.put(hostile, stack.send(stack.wallets.subwalletId(hostile.wallet()), hostile.key(), hostile.bytes()));
      String comment = VALID_COMMENTS[i % VALID_COMMENTS.length];
      TransferRef ref = stack.sendValid("known-" + i, hostile.wallet(), 1 + i % IntakeStack.VALID_RECIPIENTS,
          10_000_000L + i, comment);
      valid.add(ref);
      if (comment != null) {
        commentsByRef.put(ref, comment);
      }
    }

    stack.awaitSettled(valid);
    List<RejectionWatcher.Source> all = List.copyOf(sources.values());
    await("every hostile input rejected").atMost(Duration.ofSeconds(30)).until(() -> stack.rejections.rejectedCount(all) == all.size());

    sources.forEach((hostile, source) -> assertRejected(hostile.name(), source, hostile.bytes(), hostile.expected()));
    assertThat(stack.metrics.count("payout.requests.rejected") - rejectedBefore).isEqualTo(cases.size());
    assertThat(stack.metrics.count(RejectionProductionExceptionHandler.DROPPED_METRIC)).isZero();
    stack.assertChainPaidOnlyValid(commentsByRef);
    stack.assertNoThreadReplaced();
  }

  /** Jetton transfers intake must refuse, each with one thing wrong, all from recipients 6..10's side. */
  private List<Hostile> brokenJettonTransfers() {
    TonAddress usdt = stack.jettonMaster;
    String amountRule = "must be a positive integer of the jetton's base units";
    BigInteger eight = BigInteger.valueOf(8_000_000L);
    return List.of(
        new Hostile("a jetton this deployment does not pay", 0, walletKey(0),
            requestBytes("j-unpaid", 0, jettonTransferJson("t", 6, stack.unpaidJettonMaster, "\"1000000\"", "")),
            "$.transfers[0].jetton.master: " + stack.unpaidJettonMaster.toFriendly(true, false)
                + " is not a jetton this deployment pays (it pays [USDT " + usdt.toFriendly(true, false) + "]"),
        new Hostile("a jetton amount above max.transfer", 1, walletKey(1),
            requestBytes("j-too-much", 1, jettonTransferJson("t", 7, usdt,
                quoted(IntakeStack.MAX_JETTON_TRANSFER_UNITS.add(BigInteger.ONE)), "")),
            "$.transfers[0].jetton.amount: 10.000001 USDT (10000001 base units) is above the per-transfer limit of"
                + " 10 USDT (10000000 base units) (jettons: USDT max.transfer)"),
        new Hostile("a request's jettons above max.request", 2, walletKey(2),
            requestBytes("j-too-much-total", 2, jettonTransferJson("a", 8, usdt, quoted(eight), "") + ","
                + jettonTransferJson("b", 9, usdt, quoted(eight), "")),
            "$.transfers: the request's USDT transfers add up to 16 USDT (16000000 base units), above the"
                + " per-request limit of 15 USDT (15000000 base units) (jettons: USDT max.request)"),
        new Hostile("amountNano beside the jetton", 0, walletKey(0),
            requestBytes("j-and-ton", 0, jettonTransferJson("t", 10, usdt, "\"1000000\"",
                ",\"amountNano\":\"1000000\"")),
            "$.transfers[0].amountNano: must be left out of a jetton transfer"),
        new Hostile("a negative jetton amount", 1, walletKey(1),
            requestBytes("j-negative", 1, jettonTransferJson("t", 6, usdt, "\"-1000000\"", "")),
            "$.transfers[0].jetton.amount: " + amountRule + " (1 to 37 digits, no sign, no leading zero)"),
        new Hostile("a jetton amount in exponent notation", 2, walletKey(2),
            requestBytes("j-exponent", 2, jettonTransferJson("t", 7, usdt, "\"1e6\"", "")),
            "$.transfers[0].jetton.amount: " + amountRule + " (1 to 37 digits, no sign, no leading zero)"),
        new Hostile("a jetton amount as a JSON number", 0, walletKey(0),
            requestBytes("j-number", 0, jettonTransferJson("t", 8, usdt, "1000000", "")),
            "$.transfers[0].jetton.amount: " + amountRule + ", as a string of digits"));
  }

  /**
   * Each broken jetton transfer is rejected with its reason and pays nothing (no message signed,
   * no jetton of either master moved), and the good jetton request behind it on the same partition
   * settles: the jetton keeps being paid.
   */
  @Test
  void shouldRejectEveryBrokenJettonTransferAndPayTheGoodJettonRequestBehindIt() {
    double rejectedBefore = stack.metrics.count("payout.requests.rejected");
    List<Hostile> cases = brokenJettonTransfers();
    Map<Hostile, RejectionWatcher.Source> sources = new LinkedHashMap<>();
    List<TransferRef> valid = new ArrayList<>();
    for (int i = 0; i < cases.size(); i++) {
      Hostile hostile = cases.get(i);
      sources.put(hostile, stack.send(stack.wallets.subwalletId(hostile.wallet()), hostile.key(), hostile.bytes()));
      valid.add(stack.sendValidJetton("jetton-" + i, hostile.wallet(), 1 + i % IntakeStack.VALID_RECIPIENTS,
          BigInteger.valueOf(1_000_000L + i), "jetton " + i));
    }

    stack.awaitSettled(valid);
    List<RejectionWatcher.Source> all = List.copyOf(sources.values());
    await("every broken jetton transfer rejected").atMost(Duration.ofSeconds(30))
        .until(() -> stack.rejections.rejectedCount(all) == all.size());

    sources.forEach((hostile, source) -> assertRejected(hostile.name(), source, hostile.bytes(), hostile.expected()));
    assertThat(stack.metrics.count("payout.requests.rejected") - rejectedBefore).isEqualTo(cases.size());
    assertThat(stack.metrics.count(RejectionProductionExceptionHandler.DROPPED_METRIC)).isZero();
    stack.assertChainPaidOnlyValid(commentsByRef);
    stack.assertNoThreadReplaced();
  }

  private void assertRejected(String name, RejectionWatcher.Source source, byte[] input, String expected) {
    List<RejectionWatcher.Seen> seen = stack.rejections.rejections(source);
    assertThat(seen).as("rejections of %s", name).hasSize(1);
    Rejected rejected = seen.get(0).rejected();
    assertThat(rejected.reason()).as("reason of %s", name).isNotBlank().contains(expected);
    assertThat(seen.get(0).recordBytes()).as("record size of %s", name).isLessThanOrEqualTo(MAX_RECORD_BYTES);
    assertThat(rejected.payloadLength()).as("payload length of %s", name).isEqualTo(input.length);
    assertThat(rejected.payloadSha256()).as("payload hash of %s", name).isEqualTo(Rejected.sha256(input));
    byte[] kept = rejected.originalPayloadBytes();
    assertThat(kept).as("payload prefix of %s", name).isEqualTo(Arrays.copyOf(input, kept.length));
  }

  /**
   * A few thousand random and mutated byte strings between valid requests. The seed is printed in
   * every failure message; rerun one with {@code -Dintake.seed=<seed>}.
   */
  @Test
  void shouldRejectThousandsOfRandomAndMutatedInputsAndSettleEveryValidRequestOnce() {
    long seed = Long.getLong("intake.seed", System.nanoTime());
    log.info("hostile input property test seed={} (rerun with -Dintake.seed={})", seed, seed);
    Random random = new Random(seed);
    HostileInputs inputs = new HostileInputs(random, this::requestJson, this::transferJson);
    double rejectedBefore = stack.metrics.count("payout.requests.rejected");
    int count = 3_000;
    Map<RejectionWatcher.Source, byte[]> hostile = new LinkedHashMap<>();
    List<TransferRef> valid = new ArrayList<>();
    for (int i = 0; i < count; i++) {
      int wallet = random.nextInt(IntakeStack.WALLETS);
      HostileInputs.Input input = inputs.next(i, wallet, walletKey(wallet));
      hostile.put(stack.send(stack.wallets.subwalletId(wallet), input.key(), input.bytes()), input.bytes());
      if (i % 100 == 0) {
        String comment = "property " + i + " 👋";
        TransferRef ref = stack.sendValid("property-" + seed + "-" + i, wallet, 1 + random.nextInt(5), 1_000_000L + i,
            comment);
        valid.add(ref);
        commentsByRef.put(ref, comment);
      }
    }

    stack.awaitSettled(valid);
    List<RejectionWatcher.Source> all = List.copyOf(hostile.keySet());
    await("every hostile input rejected (seed " + seed + ")").atMost(Duration.ofSeconds(60))
        .until(() -> stack.rejections.rejectedCount(all) == all.size());

    hostile.forEach((source, bytes) -> assertRejected("input at " + source + " (seed " + seed + ")", source, bytes, ""));
    assertThat(stack.metrics.count("payout.requests.rejected") - rejectedBefore).as("seed %d", seed).isEqualTo(count);
    assertThat(stack.metrics.count(RejectionProductionExceptionHandler.DROPPED_METRIC)).as("seed %d", seed).isZero();
    stack.assertChainPaidOnlyValid(commentsByRef);
    stack.assertNoThreadReplaced();
  }
}
