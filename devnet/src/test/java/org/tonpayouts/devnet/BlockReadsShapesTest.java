package org.tonpayouts.devnet;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.time.Duration;
import java.time.Instant;
import java.util.Base64;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.tonpayouts.devnet.chain.Chain;
import org.tonpayouts.ton.address.TonAddress;
import org.tonpayouts.ton.wallet.TransferOrder;

/**
 * The block reads' request forms, answer shapes and errors as a plain HTTP client sees them:
 * toncenter's {@code blocks.shards}, {@code blocks.transactionsExt} and {@code blocks.transactions},
 * the C++ server's parameter checks, and the node's {@code LITE_SERVER_NOTREADY} texts.
 */
class BlockReadsShapesTest {
  private static final long TON = 1_000_000_000L;
  private static final String WHOLE = Long.toString(Long.MIN_VALUE);

  private final TestWallet wallet = new TestWallet(41, 698983191L);
  private final TonAddress user = TestWallet.someAddress(81);
  private final TonAddress other = TestWallet.someAddress(82);

  private Devnet devnet;
  private Http http;
  private long last;
  private long top;

  @BeforeEach
  void start() {
    devnet = Devnet.builder().blockInterval(Duration.ZERO).seed(13).start();
    http = new Http(devnet);
    devnet.fund(wallet.address, 3 * TON);
    devnet.fund(user, TON, true);
    devnet.fund(other, TON, true);
    http.post("sendBoc", Map.of("boc", wallet.sign(0, Instant.now().plusSeconds(600),
        new TransferOrder(user, TON / 10, "hello", false), new TransferOrder(other, TON / 10, null, false)).boc()));
    last = devnet.produceBlock().seqno();
    top = last + Chain.SHARD_SEQNO_OFFSET;
  }

  @AfterEach
  void stop() {
    devnet.close();
  }

  private Http.Response page(Map<String, String> extra) {
    Map<String, String> params = new LinkedHashMap<>(Map.of("workchain", "0", "shard", WHOLE, "seqno", Long.toString(top)));
    params.putAll(extra);
    return http.get("getBlockTransactionsExt", params);
  }

  @Test
  void shouldAnswerShardsWithTheBasechainBlockOfAMasterchainBlock() {
    Http.Response shards = http.get("shards", Map.of("seqno", Long.toString(last)));
    Http.Response alias = http.get("getShards", Map.of("seqno", Long.toString(last)));
    Http.Response rpc = http.rpc(5, "shards", Map.of("seqno", last));

    assertThat(shards.status()).isEqualTo(200);
    JsonNode result = shards.result();
    assertThat(result.get("@type").asText()).isEqualTo("blocks.shards");
    JsonNode id = result.get("shards").get(0);
    assertThat(result.get("shards")).hasSize(1);
    assertThat(id.get("@type").asText()).isEqualTo("ton.blockIdExt");
    assertThat(id.get("workchain").asInt()).isZero();
    assertThat(id.get("shard").isTextual()).as("a signed 64-bit decimal string").isTrue();
    assertThat(id.get("shard").asText()).isEqualTo(WHOLE);
    assertThat(id.get("seqno").asLong()).isEqualTo(top);
    assertThat(Base64.getDecoder().decode(id.get("root_hash").asText())).hasSize(32);
    assertThat(Base64.getDecoder().decode(id.get("file_hash").asText())).hasSize(32);
    assertThat(alias.result()).isEqualTo(result);
    assertThat(rpc.result()).isEqualTo(result);
    assertThat(rpc.body().get("id").asInt()).isEqualTo(5);
  }

  @Test
  void shouldGiveABlocksTransactionsAsGetTransactionsDoesWithTonlibsRawMessages() {
    Http.Response ext = page(Map.of("count", "10"));

    assertThat(ext.status()).isEqualTo(200);
    JsonNode result = ext.result();
    assertThat(result.get("@type").asText()).isEqualTo("blocks.transactionsExt");
    assertThat(result.get("req_count").asInt()).isEqualTo(10);
    assertThat(result.get("incomplete").asBoolean()).isFalse();
    assertThat(result.get("id")).isEqualTo(http.get("shards", Map.of("seqno", Long.toString(last))).result()
        .get("shards").get(0));
    JsonNode txs = result.get("transactions");
    assertThat(txs).hasSize(3); // the wallet's, then the two deliveries
    for (JsonNode tx : txs) {
      String account = tx.get("account").asText();
      JsonNode history = http.get("getTransactions", Map.of("address", account, "limit", "10")).result();
      JsonNode same = null;
      for (JsonNode h : history) {
        if (h.get("transaction_id").equals(tx.get("transaction_id"))) {
          same = h;
        }
      }
      assertThat(same).as("transaction %s in getTransactions", tx.get("transaction_id")).isNotNull();
      assertThat(tx.get("in_msg").get("source").isObject()).as("tonlib's accountAddress").isTrue();
      assertThat(tx.get("in_msg").get("destination").get("account_address").asText())
          .isEqualTo(same.get("in_msg").get("destination").asText());
      assertThat(tx.get("in_msg").has("message")).as("no decoded text in block reads").isFalse();
      assertThat(flattened(tx)).as("everything else is getTransactions' JSON").isEqualTo(withoutDecodedText(same));
    }
  }

  /** A block read's transaction with its messages' ends as strings, as getTransactions gives them. */
  private static JsonNode flattened(JsonNode blockTx) {
    ObjectNode copy = blockTx.deepCopy();
    for (ObjectNode message : messages(copy)) {
      message.put("source", message.get("source").get("account_address").asText());
      message.put("destination", message.get("destination").get("account_address").asText());
    }
    return copy;
  }

  /** A getTransactions transaction without the decoded text pytonlib adds to its messages. */
  private static JsonNode withoutDecodedText(JsonNode tx) {
    ObjectNode copy = tx.deepCopy();
    for (ObjectNode message : messages(copy)) {
      assertThat(message.remove("message")).as("getTransactions decodes every message").isNotNull();
    }
    return copy;
  }

  private static List<ObjectNode> messages(ObjectNode tx) {
    List<ObjectNode> all = new java.util.ArrayList<>();
    all.add((ObjectNode) tx.get("in_msg"));
    tx.get("out_msgs").forEach(out -> all.add((ObjectNode) out));
    return all;
  }

  @Test
  void shouldPageStrictlyAfterAnAccountAndLtGivenInAnyForm() {
    JsonNode all = page(Map.of("count", "10")).result().get("transactions");
    JsonNode first = page(Map.of("count", "1")).result();
    JsonNode second = all.get(1);
    String account = all.get(0).get("account").asText();
    String lt = all.get(0).get("transaction_id").get("lt").asText();
    byte[] id = TonAddress.parse(account).hash();

    assertThat(first.get("incomplete").asBoolean()).as("a full page").isTrue();
    assertThat(first.get("transactions")).containsExactly(all.get(0));
    for (String afterHash : List.of(HexFormat.of().formatHex(id), Base64.getEncoder().encodeToString(id),
        Base64.getUrlEncoder().withoutPadding().encodeToString(id), account)) {
      JsonNode next = page(Map.of("count", "1", "after_lt", lt, "after_hash", afterHash)).result();
      assertThat(next.get("transactions")).as("after_hash %s", afterHash).containsExactly(second);
    }
    JsonNode rest = page(Map.of("count", "2", "after_lt", lt, "after_hash", account)).result();
    assertThat(rest.get("transactions")).containsExactly(all.get(1), all.get(2));
    assertThat(rest.get("incomplete").asBoolean()).as("full, though nothing is left: the node cannot tell").isTrue();
    String lastAccount = all.get(2).get("account").asText();
    JsonNode end = page(Map.of("after_lt", all.get(2).get("transaction_id").get("lt").asText(),
        "after_hash", lastAccount)).result();
    assertThat(end.get("transactions")).isEmpty();
    assertThat(end.get("incomplete").asBoolean()).isFalse();
  }

  @Test
  void shouldListShortIdsInTheSameOrder() {
    JsonNode ext = page(Map.of()).result().get("transactions");
    JsonNode shortIds = http.get("getBlockTransactions", Map.of("workchain", "0", "shard", WHOLE,
        "seqno", Long.toString(top))).result();

    assertThat(shortIds.get("@type").asText()).isEqualTo("blocks.transactions");
    assertThat(shortIds.get("req_count").asInt()).as("toncenter's default count").isEqualTo(40);
    assertThat(shortIds.get("transactions")).hasSize(ext.size());
    for (int i = 0; i < ext.size(); i++) {
      JsonNode id = shortIds.get("transactions").get(i);
      assertThat(id.get("@type").asText()).isEqualTo("blocks.shortTxId");
      assertThat(id.get("mode").asInt()).isEqualTo(135);
      assertThat(id.get("account").asText()).isEqualTo(ext.get(i).get("account").asText());
      assertThat(id.get("lt").asText()).isEqualTo(ext.get(i).get("transaction_id").get("lt").asText());
      assertThat(id.get("hash").asText()).isEqualTo(ext.get(i).get("transaction_id").get("hash").asText());
    }
  }

  @Test
  void shouldTakeTheShardAsAnAccountPrefixAndTheBlockByItsHashes() {
    JsonNode id = http.get("shards", Map.of("seqno", Long.toString(last))).result().get("shards").get(0);
    JsonNode byPrefix = page(Map.of("shard", Long.toString(0x4000_0000_0000_0000L))).result();
    JsonNode exact = page(Map.of("root_hash", id.get("root_hash").asText(), "file_hash", id.get("file_hash").asText()))
        .result();
    byte[] wrong = new byte[32];
    Http.Response wrongHash = page(Map.of("root_hash", HexFormat.of().formatHex(wrong),
        "file_hash", id.get("file_hash").asText()));

    assertThat(byPrefix.get("id")).as("every prefix is in the workchain's one shard").isEqualTo(id);
    assertThat(exact).isEqualTo(page(Map.of()).result());
    assertThat(wrongHash.status()).isEqualTo(500);
    assertThat(wrongHash.error()).isEqualTo("LITE_SERVER_NOTREADY: cannot load block (0,8000000000000000," + top + "):"
        + "0".repeat(64) + ":" + HexFormat.of().withUpperCase().formatHex(Base64.getDecoder().decode(
            id.get("file_hash").asText())) + " : block (0,8000000000000000," + top + ") is not in db");
  }

  @Test
  void shouldAnswerTheNodesErrorsForBlocksItDoesNotHave() {
    Http.Response futureMaster = http.get("shards", Map.of("seqno", Long.toString(last + 3)));
    Http.Response futureShard = page(Map.of("seqno", Long.toString(top + 1)));
    Http.Response masterSeqnoInBasechain = page(Map.of("seqno", Long.toString(last)));
    Http.Response otherWorkchain = page(Map.of("workchain", "1"));
    Http.Response futureMasterBlock = page(Map.of("workchain", "-1", "seqno", Long.toString(last + 1)));

    assertThat(futureMaster.status()).isEqualTo(500);
    assertThat(futureMaster.error()).isEqualTo("LITE_SERVER_NOTREADY: cannot find block (-1,8000000000000000) seqno="
        + (last + 3) + ": ltdb: block not found (last known masterchain block: " + last + ")");
    assertThat(futureShard.status()).isEqualTo(500);
    assertThat(futureShard.error()).isEqualTo("LITE_SERVER_NOTREADY: cannot find block (0,8000000000000000) seqno="
        + (top + 1) + ": ltdb: block not found (possibly out of sync: shard_client_seqno=" + last + " ls_seqno=" + last + ")");
    assertThat(masterSeqnoInBasechain.error()).as("a masterchain seqno is no basechain block")
        .isEqualTo("LITE_SERVER_NOTREADY: cannot find block (0,8000000000000000) seqno=" + last + ": seqno not in db");
    assertThat(otherWorkchain.error()).endsWith("seqno not in db");
    assertThat(futureMasterBlock.error()).endsWith("(last known masterchain block: " + last + ")");
  }

  @Test
  void shouldForgetBlocksOlderThanItKeeps() {
    for (int i = 0; i < 256; i++) {
      devnet.produceBlock();
    }

    Http.Response gone = http.get("shards", Map.of("seqno", Long.toString(last)));
    Http.Response kept = http.get("shards", Map.of("seqno", Long.toString(last + 1)));

    assertThat(gone.status()).isEqualTo(500);
    assertThat(gone.error()).isEqualTo("LITE_SERVER_NOTREADY: cannot find block (-1,8000000000000000) seqno=" + last
        + ": seqno not in db");
    assertThat(page(Map.of()).error()).endsWith("seqno not in db");
    assertThat(kept.status()).isEqualTo(200);
  }

  @Test
  void shouldCheckParametersAsTheCppServerDoes() {
    assertThat(page(Map.of("count", "0")).error()).isEqualTo("failed to validate request: count should be positive");
    assertThat(page(Map.of("count", "10001")).error())
        .isEqualTo("failed to validate request: count should be less or equal 10000");
    assertThat(page(Map.of("count", "10000")).status()).isEqualTo(200);
    assertThat(page(Map.of("seqno", "0")).error()).isEqualTo("failed to validate request: seqno should be positive");
    assertThat(page(Map.of("after_lt", "5")).error())
        .isEqualTo("failed to validate request: after_lt and after_hash should be used together");
    assertThat(page(Map.of("after_lt", "-1", "after_hash", "00".repeat(32))).error())
        .isEqualTo("failed to validate request: after_lt should be non-negative");
    assertThat(http.get("shards", Map.of("seqno", "0")).error()).isEqualTo("failed to validate request: seqno should be positive");
    Http.Response missing = http.get("getBlockTransactionsExt", Map.of("workchain", "0", "seqno", "5"));
    assertThat(missing.status()).isEqualTo(422);
    assertThat(missing.error()).contains("shard");
    assertThat(page(Map.of("count", "0")).status()).isEqualTo(422);
  }
}
