package org.tonpayouts.devnet;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Base64;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.ton.ton4j.cell.Cell;
import org.ton.ton4j.cell.CellBuilder;
import org.ton.ton4j.cell.CellSlice;
import org.ton.ton4j.tlb.CurrencyCollection;
import org.ton.ton4j.tlb.InternalMessageInfoRelaxed;
import org.ton.ton4j.tlb.Message;
import org.ton.ton4j.tlb.MsgAddressExtNone;
import org.ton.ton4j.tlb.StateInit;
import org.tonpayouts.devnet.TestWallet.Order;
import org.tonpayouts.devnet.TestWallet.Send;
import org.tonpayouts.devnet.chain.DevnetTransaction;
import org.tonpayouts.ton.address.TonAddress;
import org.tonpayouts.ton.wallet.TextComment;
import org.tonpayouts.ton.wallet.TransferOrder;

/**
 * devnet's cells do not change with its implementation: a fixed scenario (fixed clock, keys and
 * messages) run through the HTTP API gives exactly the transactions, message hashes, bodies,
 * StateInits and account states listed in {@code golden/transactions.txt}, which was recorded
 * with devnet's cells still built by ton4j. Every cell is identified by its hash as ton4j reads
 * the BOC devnet serves, so the BOCs' byte order may change but not their content.
 *
 * <p>The scenario covers every shape devnet writes: funding, deploys (StateInit inline and in a
 * reference, body inline and in a reference), short, snake and absent comments, raw bodies,
 * orders carrying a StateInit, zero and large values, four sends in one message, a skipped send,
 * an aborted transaction, a destroyed wallet, a bounce and its receipt, foreign transfers.
 */
class GoldenTransactionsTest {
  private static final long TON = 1_000_000_000L;
  private static final String GOLDEN = "/golden/transactions.txt";

  private final ManualClock clock = ManualClock.fixedAt(Instant.parse("2026-05-01T10:00:00Z"));
  private final TestWallet payer = new TestWallet(41, 698983191L);
  private final TestWallet poor = new TestWallet(42, 698983191L);
  private final TestWallet doomed = new TestWallet(43, 698983191L);
  private final TestWallet crafter = new TestWallet(44, 17L);
  private final TestWallet referenced = new TestWallet(45, 698983191L);
  private final TestWallet carried = new TestWallet(46, 5L);
  private final TonAddress user = TestWallet.someAddress(80);
  private final TonAddress nobody = TestWallet.someAddress(81);
  private final TonAddress fresh = TestWallet.someAddress(82);

  private Devnet devnet;
  private Http http;

  @BeforeEach
  void start() {
    devnet = Devnet.builder().blockInterval(Duration.ZERO).clock(clock).seed(3).start();
    http = new Http(devnet);
  }

  @AfterEach
  void stop() {
    devnet.close();
  }

  @Test
  void shouldWriteTheSameCellsAsRecorded() throws IOException {
    runScenario();

    List<String> listing = new ArrayList<>();
    for (TonAddress account : List.of(payer.address, poor.address, doomed.address, crafter.address,
        referenced.address, carried.address, user, nobody, fresh)) {
      describe(account, listing);
    }
    String actual = String.join("\n", listing) + "\n";
    Path written = Path.of("target", "golden-transactions-actual.txt");
    Files.createDirectories(written.getParent());
    Files.writeString(written, actual); // to diff against the recording when this fails

    assertThat(listing).as("transactions listed").hasSizeGreaterThan(60);
    assertThat(actual).as("cells against " + GOLDEN + " (this run: " + written.toAbsolutePath() + ")")
        .isEqualTo(golden());
  }

  private void runScenario() {
    devnet.fund(payer.address, 20 * TON);
    devnet.fund(user, TON, true);
    devnet.fund(poor.address, TON / 100);
    devnet.fund(doomed.address, TON);
    devnet.fund(crafter.address, 5 * TON);
    devnet.fund(referenced.address, 2 * TON);

    send(payer.sign(0, validUntil(),
        new TransferOrder(user, TON, "payout #1", false),
        new TransferOrder(nobody, TON / 2, null, true),
        new TransferOrder(fresh, TON / 4, "snake " + "long comment ".repeat(40), false),
        new TransferOrder(user, 7 * TON + 123_456_789L, "large", true)).boc());
    send(poor.raw(poor.key, poor.subwalletId, validUntil().getEpochSecond(), 0, true,
        new Send(1, user, TON, "mode 1", false)));
    send(doomed.raw(doomed.key, doomed.subwalletId, validUntil().getEpochSecond(), 0, true,
        new Send(128 + 32, user, 0, null, false)));
    send(crafter.raw(crafter.key, crafter.subwalletId, validUntil().getEpochSecond(), 0, true, List.of(
        new Order(3, order(user, TON / 10, false, null, comment("inline body"), true)),
        new Order(3, order(fresh, TON / 10, true, carried.stateInitCell(), comment("with init"), true)),
        new Order(3, order(nobody, TON / 10, true, carried.stateInitCell(), comment("x".repeat(120)), false)),
        new Order(1, order(user, 0, false, null, rawBody(), true)))));
    send(inReferences(referenced.raw(referenced.key, referenced.subwalletId, validUntil().getEpochSecond(), 0, true,
        new Send(3, user, TON / 3, "from a deploy with everything in references", true))));
    devnet.produceBlock();

    clock.advance(Duration.ofSeconds(7));
    send(payer.raw(payer.key, payer.subwalletId, validUntil().getEpochSecond(), 1, false,
        new Send(3, user, 100 * TON, "skipped", false),
        new Send(3, user, TON / 10, "sent", false),
        new Send(1, fresh, 0, "zero " + "value ".repeat(60), false),
        new Send(3, nobody, TON / 5, "bounce me with a comment longer than thirty-two bytes", true)));
    send(bodyInReference(crafter.raw(crafter.key, crafter.subwalletId, validUntil().getEpochSecond(), 1, false,
        new Send(3, user, TON / 7, null, true))));
    devnet.produceBlock();

    clock.advance(Duration.ofSeconds(5));
    devnet.foreignTransfer(payer.address, user, TON / 5, "not ours");
    devnet.foreignTransfer(crafter.address, nobody, TON / 9, null);
    devnet.produceBlock();
  }

  private Instant validUntil() {
    return clock.instant().plusSeconds(60);
  }

  private void send(String boc) {
    assertThat(http.post("sendBoc", Map.of("boc", boc)).status()).isEqualTo(200);
  }

  /** Every transaction of {@code account} as getTransactions serves it, then its state. */
  private void describe(TonAddress account, List<String> listing) {
    String friendly = account.toFriendly(true, false);
    JsonNode txs = http.get("getTransactions", Map.of("address", friendly, "limit", "100")).result();
    List<DevnetTransaction> recorded = devnet.transactions(account);
    assertThat(txs).hasSameSizeAs(recorded);
    for (JsonNode tx : txs) {
      String hash = tx.get("transaction_id").get("hash").asText();
      DevnetTransaction own = recorded.stream().filter(t -> b64(t.hash()).equals(hash)).findFirst().orElseThrow();
      listing.add(account.toRaw() + " lt=" + tx.get("transaction_id").get("lt").asText() + " hash=" + hash
          + " data=" + bocHash(tx.get("data").asText()) + " fee=" + tx.get("fee").asText()
          + " aborted=" + own.aborted() + " description=" + own.description());
      listing.add("  in  " + message(tx.get("in_msg")));
      for (JsonNode out : tx.get("out_msgs")) {
        listing.add("  out " + message(out));
      }
    }
    JsonNode info = http.get("getAddressInformation", Map.of("address", friendly)).result();
    listing.add(account.toRaw() + " state=" + info.get("state").asText() + " balance=" + info.get("balance").asText()
        + " code=" + bocHash(info.get("code").asText()) + " data=" + bocHash(info.get("data").asText()));
  }

  private static String message(JsonNode m) {
    JsonNode data = m.get("msg_data");
    String content = data.get("@type").asText().equals("msg.dataText")
        ? "text=" + data.get("text").asText()
        : "body=" + bocHash(data.get("body").asText()) + " init=" + bocHash(data.get("init_state").asText());
    return "hash=" + m.get("hash").asText() + " body_hash=" + m.get("body_hash").asText()
        + " from=" + m.get("source").asText() + " to=" + m.get("destination").asText()
        + " value=" + m.get("value").asText() + " fwd_fee=" + m.get("fwd_fee").asText()
        + " created_lt=" + m.get("created_lt").asText() + " " + content + " message=" + m.get("message").asText();
  }

  /** The hash of the BOC's root as ton4j reads it ({@code -} for none). */
  private static String bocHash(String base64) {
    if (base64.isEmpty()) {
      return "-";
    }
    return HexFormat.of().formatHex(Cell.fromBoc(Base64.getDecoder().decode(base64)).getHash());
  }

  private static String b64(String hex) {
    return Base64.getEncoder().encodeToString(HexFormat.of().parseHex(hex));
  }

  private static String golden() {
    try (InputStream in = GoldenTransactionsTest.class.getResourceAsStream(GOLDEN)) {
      assertThat(in).as(GOLDEN).isNotNull();
      return new String(in.readAllBytes(), StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  // ---- messages the signer does not make, built with ton4j ------------------------------------

  private static Cell comment(String text) {
    return Cell.fromBoc(TextComment.encode(text).toBoc());
  }

  /** A body that is not a comment: op 0x12345678 and some bytes. */
  private static Cell rawBody() {
    return CellBuilder.beginCell().storeUint(0x12345678L, 32).storeBytes("raw payload bytes".getBytes()).endCell();
  }

  /** A wallet order: StateInit ({@code init}, or none) inline, the body inline or in a reference. */
  private static Cell order(TonAddress destination, long amount, boolean bounce, Cell init, Cell body,
                            boolean bodyInline) {
    Cell info = TestWallet.orderInfo(destination, amount, bounce);
    CellBuilder b = CellBuilder.beginCell().storeCell(info);
    if (init == null) {
      b.storeBit(false);
    } else {
      b.storeBit(true).storeBit(false).storeCell(init);
    }
    if (bodyInline) {
      b.storeBit(false).storeCell(body);
    } else {
      b.storeBit(true).storeRef(body);
    }
    return b.endCell();
  }

  /** The same external message with its body in a reference. */
  private static String bodyInReference(String base64) {
    return rewritten(base64, false);
  }

  /** The same external message with its StateInit and its body in references. */
  private static String inReferences(String base64) {
    return rewritten(base64, true);
  }

  private static String rewritten(String base64, boolean initInReference) {
    Message message = Message.deserialize(CellSlice.beginParse(Cell.fromBoc(Base64.getDecoder().decode(base64))));
    CellBuilder b = CellBuilder.beginCell().storeCell(message.getInfo().toCell());
    StateInit init = message.getInit();
    if (init == null) {
      b.storeBit(false);
    } else if (initInReference) {
      b.storeBit(true).storeBit(true).storeRef(init.toCell());
    } else {
      b.storeBit(true).storeBit(false).storeCell(init.toCell());
    }
    Cell body = CellBuilder.beginCell().storeCell(message.getBody()).endCell();
    b.storeBit(true).storeRef(body);
    return Base64.getEncoder().encodeToString(b.endCell().toBoc());
  }
}
