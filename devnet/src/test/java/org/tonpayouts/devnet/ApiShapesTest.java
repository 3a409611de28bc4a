package org.tonpayouts.devnet;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.tonpayouts.ton.address.TonAddress;
import org.tonpayouts.ton.wallet.TransferOrder;

/** toncenter's request forms, result shapes and error envelopes. */
class ApiShapesTest {
  private static final long TON = 1_000_000_000L;

  private Devnet devnet;
  private Http http;
  private final TestWallet wallet = new TestWallet(4, 42L);

  @BeforeEach
  void start() {
    devnet = Devnet.builder().blockInterval(Duration.ZERO).seed(3).start();
    http = new Http(devnet);
  }

  @AfterEach
  void stop() {
    devnet.close();
  }

  private void deploy() {
    devnet.fund(wallet.address, 3 * TON);
    http.post("sendBoc", Map.of("boc", wallet.sign(0, Instant.now().plusSeconds(60),
        new TransferOrder(TestWallet.someAddress(30), TON / 10, null, false)).boc()));
    devnet.produceBlock();
  }

  @Test
  void shouldEchoNumericAndStringJsonRpcIds() {
    Http.Response numeric = http.rpc(7, "getMasterchainInfo", Map.of());
    Http.Response text = http.rpc("req-1", "getAddressBalance", Map.of("address", wallet.friendly()));
    Http.Response unknown = http.rpc(8, "noSuchMethod", Map.of());

    assertThat(numeric.status()).isEqualTo(200);
    assertThat(numeric.body().get("ok").asBoolean()).isTrue();
    assertThat(numeric.body().get("jsonrpc").asText()).isEqualTo("2.0");
    assertThat(numeric.body().get("id").isNumber()).isTrue();
    assertThat(numeric.body().get("id").asInt()).isEqualTo(7);
    assertThat(numeric.result().get("@type").asText()).isEqualTo("blocks.masterchainInfo");
    assertThat(text.body().get("id").isTextual()).isTrue();
    assertThat(text.body().get("id").asText()).isEqualTo("req-1");
    assertThat(text.result().asText()).isEqualTo("0");
    assertThat(unknown.status()).isEqualTo(422);
    assertThat(unknown.body().get("ok").asBoolean()).isFalse();
    assertThat(unknown.error()).isEqualTo("Unknown method");
    assertThat(unknown.body().get("id").asInt()).isEqualTo(8);
  }

  @Test
  void shouldAnswerConfigParam19WithDevnetsOwnGlobalIdAsTonlibShapesIt() {
    Http.Response answer = http.get("getConfigParam", Map.of("config_id", "19"));
    Http.Response other = http.get("getConfigParam", Map.of("config_id", "34"));
    Http.Response missing = http.get("getConfigParam", Map.of());

    assertThat(answer.status()).isEqualTo(200);
    assertThat(answer.result().get("@type").asText()).isEqualTo("configInfo");
    assertThat(answer.result().get("config").get("@type").asText()).isEqualTo("tvm.cell");
    // read by ton4j, not by the cells devnet wrote it with
    long globalId = org.ton.ton4j.cell.CellSlice.beginParse(org.ton.ton4j.cell.Cell.fromBocBase64(
        answer.result().get("config").get("bytes").asText())).loadInt(32).longValueExact();
    assertThat(globalId).isEqualTo(org.tonpayouts.ton.network.TonNetwork.DEVNET_GLOBAL_ID).isNotIn(-239L, -3L);
    assertThat(other.status()).isEqualTo(500);
    assertThat(other.error()).contains("parameter 19 (global_id) only, not 34");
    assertThat(missing.status()).isEqualTo(422);
  }

  @Test
  void shouldSendThroughJsonRpcAndGetQueryParameters() {
    devnet.fund(wallet.address, TON);
    String boc = wallet.sign(0, Instant.now().plusSeconds(60),
        new TransferOrder(TestWallet.someAddress(31), TON / 10, null, false)).boc();

    Http.Response viaRpc = http.rpc(1, "sendBocReturnHash", Map.of("boc", boc));
    Http.Response viaGet = http.get("sendBoc", Map.of("boc", boc)); // same message again: still valid before the block

    assertThat(viaRpc.result().get("@type").asText()).isEqualTo("raw.extMessageInfo");
    assertThat(viaGet.status()).isEqualTo(200);
    assertThat(viaGet.result().get("@type").asText()).isEqualTo("ok");
    devnet.produceBlock();
    assertThat(devnet.seqno(wallet.address)).isEqualTo(1);
    assertThat(devnet.stats().accepted()).isEqualTo(2);
    assertThat(devnet.stats().vanished()).isZero(); // one copy per hash in the mempool
    assertThat(devnet.transactions(wallet.address)).hasSize(2); // the funding and one transfer
  }

  @Test
  void shouldAnswerErrorsWithToncentersEnvelope() {
    Http.Response unknownPath = http.get("noSuchMethod", Map.of());
    Http.Response badAddress = http.get("getAddressInformation", Map.of("address", "not-an-address"));
    Http.Response missing = http.get("getWalletInformation", Map.of());
    Http.Response badNumber = http.get("getTransactions", Map.of("address", wallet.friendly(), "limit", "ten"));

    assertThat(unknownPath.status()).isEqualTo(404);
    assertThat(unknownPath.body().get("code").asInt()).isEqualTo(404);
    assertThat(unknownPath.body().get("ok").asBoolean()).isFalse();
    assertThat(badAddress.status()).isEqualTo(416);
    assertThat(badAddress.error()).isEqualTo("Incorrect address");
    assertThat(missing.status()).isEqualTo(422);
    assertThat(missing.error()).contains("address");
    assertThat(badNumber.status()).isEqualTo(422);
  }

  @Test
  void shouldDescribeAnUninitializedWallet() {
    devnet.fund(wallet.address, TON);

    JsonNode info = http.get("getWalletInformation", Map.of("address", wallet.address.toRaw())).result();
    JsonNode account = http.get("getAddressInformation", Map.of("address", wallet.friendly())).result();
    JsonNode seqno = http.post("runGetMethod", Map.of("address", wallet.friendly(), "method", "seqno", "stack", List.of()))
        .result();

    assertThat(info.get("wallet").asBoolean()).isFalse();
    assertThat(info.get("account_state").asText()).isEqualTo("uninitialized");
    assertThat(info.get("balance").asText()).isEqualTo(Long.toString(TON));
    assertThat(info.has("seqno")).isFalse();
    assertThat(info.get("last_transaction_id").get("lt").asText()).isNotEqualTo("0"); // the funding
    assertThat(account.get("@type").asText()).isEqualTo("raw.fullAccountState");
    assertThat(account.get("state").asText()).isEqualTo("uninitialized");
    assertThat(account.get("code").asText()).isEmpty();
    assertThat(account.get("block_id").get("workchain").asInt()).isEqualTo(-1);
    assertThat(account.get("block_id").get("shard").asText()).isEqualTo("-9223372036854775808");
    assertThat(seqno.get("@type").asText()).isEqualTo("smc.runResult");
    assertThat(seqno.get("exit_code").asInt()).isNotZero();
    assertThat(seqno.get("stack")).isEmpty();
  }

  @Test
  void shouldRunTheWalletsGetMethods() {
    deploy();

    JsonNode seqno = http.rpc(1, "runGetMethod", Map.of("address", wallet.friendly(), "method", "seqno", "stack", List.of()))
        .result();
    JsonNode subwallet = http.post("runGetMethod", Map.of("address", wallet.friendly(), "method", "get_subwallet_id",
        "stack", List.of())).result();
    JsonNode publicKey = http.post("runGetMethod", Map.of("address", wallet.friendly(), "method", 78748,
        "stack", List.of())).result();
    JsonNode unknown = http.post("runGetMethod", Map.of("address", wallet.friendly(), "method", "get_plugin_list",
        "stack", List.of())).result();
    JsonNode account = http.get("getAddressInformation", Map.of("address", wallet.friendly())).result();

    assertThat(seqno.get("exit_code").asInt()).isZero();
    assertThat(seqno.get("stack").get(0).get(0).asText()).isEqualTo("num");
    assertThat(seqno.get("stack").get(0).get(1).asText()).isEqualTo("0x1");
    assertThat(subwallet.get("stack").get(0).get(1).asText()).isEqualTo("0x2a");
    assertThat(publicKey.get("stack").get(0).get(1).asText())
        .isEqualTo("0x" + new java.math.BigInteger(1, wallet.key.publicKey()).toString(16));
    assertThat(unknown.get("exit_code").asInt()).isEqualTo(11);
    assertThat(account.get("state").asText()).isEqualTo("active");
    assertThat(account.get("code").asText()).isNotEmpty();
    assertThat(account.get("data").asText()).isNotEmpty();
  }

  @Test
  void shouldReportTheMasterchain() {
    long before = http.get("getMasterchainInfo", Map.of()).result().get("last").get("seqno").asLong();
    devnet.produceBlock();
    JsonNode info = http.get("getMasterchainInfo", Map.of()).result();

    assertThat(info.get("last").get("seqno").asLong()).isEqualTo(before + 1);
    assertThat(info.get("last").get("@type").asText()).isEqualTo("ton.blockIdExt");
    assertThat(info.get("last").get("root_hash").asText()).hasSize(44);
    assertThat(info.get("init").get("seqno").asLong()).isZero();
    assertThat(info.get("state_root_hash").asText()).hasSize(44);
  }

  @Test
  void shouldFundThroughTheAdminApi() {
    TonAddress user = TestWallet.someAddress(32);

    Http.Response funded = http.admin("fund", Map.of("address", user.toRaw(), "amount", "2500000000", "active", true));
    Http.Response numeric = http.admin("fund", Map.of("address", wallet.friendly(), "amount", 1_000_000_000L));
    Http.Response bad = http.admin("fund", Map.of("address", "nope", "amount", 1));
    Http.Response notForeign = http.admin("foreign-transfer", Map.of("wallet", user.toRaw(),
        "destination", wallet.friendly(), "amount", 1));

    assertThat(funded.status()).isEqualTo(200);
    assertThat(funded.result().get("state").asText()).isEqualTo("active");
    assertThat(devnet.balance(user)).isEqualTo(2_500_000_000L);
    assertThat(numeric.result().get("state").asText()).isEqualTo("uninitialized");
    assertThat(devnet.balance(wallet.address)).isEqualTo(TON);
    assertThat(bad.status()).isEqualTo(416);
    assertThat(notForeign.status()).isEqualTo(400);
    assertThat(notForeign.error()).contains("not a deployed WalletV4R2");
  }
}
