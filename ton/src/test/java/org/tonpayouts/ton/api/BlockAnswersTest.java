package org.tonpayouts.ton.api;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.InstanceOfAssertFactories.type;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.tonpayouts.ton.address.TonAddress;

/**
 * Block reads ({@code shards}, {@code getBlockTransactionsExt}) parsed from answers real servers
 * gave (fixtures in {@code toncenter/}, see its README), and the node's "not yet" errors told
 * apart from its "never" errors.
 */
class BlockAnswersTest {
  private static final BlockId MASTERCHAIN_BLOCK = BlockId.bySeqno(-1, BlockId.WHOLE_WORKCHAIN, 39_984_096L);
  private static final TonAddress ACCOUNT_3 = TonAddress.parse("-1:" + "3".repeat(64));
  private static final TonAddress ACCOUNT_5 = TonAddress.parse("-1:" + "5".repeat(64));
  private static final TonAddress ZERO = TonAddress.parse("-1:" + "0".repeat(64));

  private final ResponseParser parser = new ResponseParser(new ObjectMapper(), Optional.empty());

  private static byte[] fixture(String name) {
    return ToncenterFixtures.bytes(name);
  }

  private JsonNode ok(String method, String fixture) {
    return parser.unwrap(method, 200, fixture(fixture), Optional.empty(), false);
  }

  private BlockTransactions page(String fixture) {
    return parser.blockTransactions("getBlockTransactionsExt", ok("getBlockTransactionsExt", fixture), MASTERCHAIN_BLOCK);
  }

  private static byte[] bytes(String s) {
    return s.getBytes(StandardCharsets.UTF_8);
  }

  @Test
  void shouldReadShardsAsBlockIdsWithTheSignedShard() {
    List<BlockId> shards = parser.shards("shards", ok("shards", "shards.json"));

    assertThat(shards).containsExactly(new BlockId(0, 576_460_752_303_423_488L, 45_341_164L,
        "6bdbc8219609db35353a1e05a0718e205a05e6c1af11802191d8b971ab9f35ee",
        "f82475552285a26faa495871041de9909c9d60064ea8454e46bdf9f31b1c12af"));
    assertThat(shards.get(0).shardHex()).as("a shard of depth 4 of the basechain").isEqualTo("0800000000000000");
    assertThat(shards.get(0).seqno()).as("shard seqnos run apart from masterchain seqnos").isNotEqualTo(39_984_096L);
  }

  @Test
  void shouldReadAPythonServerPageInTheNodesOrder() {
    BlockTransactions page = page("getBlockTransactionsExt-python.json");

    assertThat(page.block()).isEqualTo(new BlockId(-1, Long.MIN_VALUE, 39_984_096L,
        "6f6ebf3f0f01633e9563b472601ff0d8d7fca4a05e6ec83e1f8ad3d691f96443",
        "94bca5ae3ede667d1348dc69838ca8bc9278c7f20b81e789ddbc92e8c1554c9c"));
    assertThat(page.incomplete()).isFalse();
    assertThat(page.next()).as("a page that is not full is the block's last").isEmpty();
    assertThat(page.transactions()).extracting(ChainTransaction::account)
        .as("by account id, then by lt").containsExactly(ACCOUNT_3, ACCOUNT_3, ACCOUNT_5);
    assertThat(page.transactions()).extracting(tx -> tx.id().lt())
        .containsExactly(48_756_940_000_001L, 48_756_940_000_002L, 48_756_940_000_003L);

    ChainTransaction tick = page.transactions().get(0);
    assertThat(tick.id().hash()).isEqualTo("473a1119c132c7921ae6d10a516942a456e0f01d2c729b974b23577fd6b836c9");
    assertThat(tick.inMsg()).as("a tick-tock transaction has no in-message").isNull();
    assertThat(tick.utime()).isEqualTo(1_724_744_427L);
    assertThat(tick.data()).startsWith("te6cckECBgEAASwAA69zMzMz");

    ChainMessage in = page.transactions().get(1).inMsg();
    assertThat(in.source()).as("ends given as accountAddress objects").isEqualTo(ZERO);
    assertThat(in.destination()).isEqualTo(ACCOUNT_3);
    assertThat(in.value()).isEqualTo(29_165_187_604L);
    assertThat(in.createdLt()).isEqualTo(48_756_940_000_000L);
    assertThat(in.bodyHash()).isEqualTo("96a296d224f285c67bee93c30f8a309157f0daa35dc5b87e410b78630a09cfc7");
    assertThat(in.hash()).as("the Python server's tonlib gives no message hash").isNull();
  }

  @Test
  void shouldReadTheCppServerShapeOfTheSameTransactionsAlike() {
    BlockTransactions python = page("getBlockTransactionsExt-python.json");
    BlockTransactions cpp = page("getBlockTransactionsExt-cpp.json");

    assertThat(cpp.block()).isEqualTo(python.block());
    assertThat(cpp.incomplete()).isTrue();
    assertThat(cpp.next()).contains(new BlockTransactions.After("3".repeat(64), 48_756_940_000_002L));
    assertThat(cpp.transactions()).hasSize(2);
    assertThat(cpp.transactions().get(0)).isEqualTo(python.transactions().get(0));
    ChainTransaction withHash = cpp.transactions().get(1);
    assertThat(withHash.inMsg().hash()).as("the C++ server names the in-message by its cell hash")
        .isEqualTo("8b98a14571595da2705a29c0293104b6c0fabfcf7eda4d67eac86501048b0c4e");
    assertThat(withoutInMessageHash(withHash)).isEqualTo(python.transactions().get(1));
  }

  private static ChainTransaction withoutInMessageHash(ChainTransaction tx) {
    ChainMessage m = tx.inMsg();
    ChainMessage bare = new ChainMessage(null, m.source(), m.destination(), m.value(), m.fwdFee(), m.ihrFee(),
        m.createdLt(), m.bodyHash(), m.comment(), m.bodyBase64(), m.initState());
    return new ChainTransaction(tx.account(), tx.id(), tx.utime(), tx.fee(), tx.storageFee(), tx.otherFee(), bare,
        tx.outMsgs(), tx.data());
  }

  @Test
  void shouldRefuseAPageOfAnotherBlockOrWithoutItsFlag() {
    JsonNode answer = ok("getBlockTransactionsExt", "getBlockTransactionsExt-python.json");
    BlockId other = BlockId.bySeqno(-1, Long.MIN_VALUE, 39_984_097L);

    assertThatThrownBy(() -> parser.blockTransactions("getBlockTransactionsExt", answer, other))
        .isInstanceOf(UnexpectedResponseException.class)
        .hasMessageContaining("asked for block (-1,8000000000000000,39984097)");
    ((com.fasterxml.jackson.databind.node.ObjectNode) answer).remove("incomplete");
    assertThatThrownBy(() -> parser.blockTransactions("getBlockTransactionsExt", answer, MASTERCHAIN_BLOCK))
        .isInstanceOf(UnexpectedResponseException.class)
        .hasMessageContaining("incomplete");
    assertThatThrownBy(() -> parser.shards("shards", parser.unwrap("shards", 200,
        bytes("{\"ok\":true,\"result\":{\"@type\":\"blocks.shards\"}}"), Optional.empty(), false)))
        .isInstanceOf(UnexpectedResponseException.class);
  }

  @Test
  void shouldTellABlockNotMadeYetFromOneTheNodeWillNeverHave() {
    // the validator manager's text for a masterchain seqno past its last block
    byte[] future = bytes("{\"ok\":false,\"error\":\"LITE_SERVER_NOTREADY: cannot find block (-1,8000000000000000) "
        + "seqno=39984099: ltdb: block not found (last known masterchain block: 39984096)\",\"code\":500}");
    // a shard block above the node's shard client (quoted from a node's log, ton-blockchain/ton#967)
    byte[] shardAhead = bytes("{\"ok\":false,\"error\":\"LITE_SERVER_NOTREADY: cannot load block "
        + "(0,8000000000000000,42987922):E115288CBA6084548A46CB2E67C8C8716E490259CB0EA50BBE1881B33B295E67:"
        + "4EAC1E61E12F1C3BA106BE307344CFFCFEB23DA916E5360D13495BB55BDD5F70 : block (0,8000000000000000,42987922) is "
        + "not in db (possibly out of sync: shard_client_seqno=37302599 ls_seqno=37302611)\",\"code\":500}");
    // an old block a non-archival node dropped (quoted, toncenter/ton-http-api#136)
    byte[] dropped = bytes("{\"ok\": false, \"error\": \"LITE_SERVER_NOTREADY: cannot find block "
        + "(-1,8000000000000000) seqno=2399: seqno not in db\", \"code\": 500}");

    assertThatThrownBy(() -> parser.unwrap("shards", 500, future, Optional.empty(), false))
        .asInstanceOf(type(BlockNotReadyException.class))
        .satisfies(e -> {
          assertThat(e.isTransient()).isTrue();
          assertThat(e.httpStatus()).isEqualTo(500);
          assertThat(e.text()).contains("last known masterchain block: 39984096");
        });
    assertThatThrownBy(() -> parser.unwrap("getBlockTransactionsExt", 500, shardAhead, Optional.empty(), false))
        .isInstanceOf(BlockNotReadyException.class);
    assertThatThrownBy(() -> parser.unwrap("getBlockTransactionsExt", 500, dropped, Optional.empty(), false))
        .as("waiting does not bring back a dropped block")
        .asInstanceOf(type(ApiErrorException.class))
        .satisfies(e -> assertThat(e.text()).endsWith("seqno not in db"));
  }

  @Test
  void shouldRefuseMalformedPositionsAndHalfKnownBlocks() {
    assertThatThrownBy(() -> new BlockTransactions.After("xyz", 1)).isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> new BlockTransactions.After("a".repeat(64), -1)).isInstanceOf(IllegalArgumentException.class);
    assertThat(new BlockTransactions.After("AB".repeat(32), 7).accountHex()).isEqualTo("ab".repeat(32));
    assertThatThrownBy(() -> new BlockId(0, Long.MIN_VALUE, 5, "a".repeat(64), null))
        .isInstanceOf(IllegalArgumentException.class);
    BlockId known = new BlockId(0, Long.MIN_VALUE, 5, "A".repeat(64), "b".repeat(64));
    assertThat(known.rootHash()).isEqualTo("a".repeat(64));
    assertThat(known.withoutHashes()).isEqualTo(BlockId.bySeqno(0, Long.MIN_VALUE, 5));
    assertThat(known.shardHex()).isEqualTo("8000000000000000");
  }
}
