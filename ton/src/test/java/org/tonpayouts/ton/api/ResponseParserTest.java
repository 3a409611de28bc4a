package org.tonpayouts.ton.api;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.InstanceOfAssertFactories.type;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.tonpayouts.ton.address.TonAddress;

/** Real toncenter answer shapes (fixtures in {@code toncenter/}) turn into the right records and errors. */
class ResponseParserTest {
  private static final String KEY = "c0ffee-secret-api-key-0123456789";
  private static final TonAddress WALLET = TonAddress.parse("EQAlkiTak6MlHRgaImxjUdb3SsEE7PA43ZxGGzZ8Cm2hOE2N");
  private static final TonAddress DEST = TonAddress.parse("EQCD39VS5jcptHL8vMjEXrzGaRcCVYto7HUn4bpAOg8xqB2N");
  private static final TonAddress SENDER = TonAddress.parse("EQA0i8-CdGnF_DhUHHf92R1ONH6sIA9vLZ_WLcCIhfBBXwtG");

  private final ResponseParser parser = new ResponseParser(new ObjectMapper(), Optional.of(KEY));

  private static byte[] fixture(String name) {
    return ToncenterFixtures.bytes(name);
  }

  private JsonNode ok(String method, String fixture) {
    return parser.unwrap(method, 200, fixture(fixture), Optional.empty(), false);
  }

  private static byte[] bytes(String s) {
    return s.getBytes(StandardCharsets.UTF_8);
  }

  // ---------------------------------------------------------------- results

  @Test
  void shouldReadActiveV4R2WalletInformation() {
    WalletInfo info = parser.walletInfo("getWalletInformation", ok("getWalletInformation", "getWalletInformation-active.json"));

    assertThat(info).isEqualTo(new WalletInfo(true, 2_499_999_988L, "active", 17L, 698_983_191L, "wallet v4 r2",
        new TransactionId(64_902_974_000_003L, "fc2b4e18b6bce83d2ec14cfefa7ad2613708b81e8932456c1db3d719b79ea872")));
    assertThat(info.isActive()).isTrue();
  }

  @Test
  void shouldAcceptNumbersAsStringsOrNumbersAndUrlSafeUnpaddedHashes() {
    WalletInfo info = parser.walletInfo("getWalletInformation", ok("getWalletInformation", "getWalletInformation-strings.json"));

    assertThat(info.balance()).isEqualTo(1_500_000_000L);
    assertThat(info.seqno()).isEqualTo(5L);
    assertThat(info.walletId()).isEqualTo(698_983_190L);
    assertThat(info.lastTransaction()).isEqualTo(new TransactionId(32_450_206_000_003L,
        "ac11ceabf4f74a8a96b5af085cbf131f162a4e2dad3a4041f3ef4d2b4b8a5a89"));
  }

  @Test
  void shouldReadUninitializedWalletWithoutSeqnoOrLastTransaction() {
    WalletInfo info = parser.walletInfo("getWalletInformation", ok("getWalletInformation", "getWalletInformation-uninitialized.json"));

    assertThat(info.wallet()).isFalse();
    assertThat(info.isUninitialized()).isTrue();
    assertThat(info.seqno()).isNull();
    assertThat(info.balance()).isZero();
    assertThat(info.lastTransaction()).as("lt 0 means the account never had a transaction").isNull();
  }

  @Test
  void shouldReadAddressInformation() {
    AddressInfo info = parser.addressInfo("getAddressInformation", ok("getAddressInformation", "getAddressInformation.json"));

    assertThat(info.balance()).isEqualTo(1_000_000_000L);
    assertThat(info.state()).isEqualTo("active");
    assertThat(info.code()).isEqualTo("te6cckEBAQEAAgAAAEysuc0=");
    assertThat(info.data()).isEqualTo("te6cckEBAQEADgAAGA+KfqUAAAAAAAAABzCK6H4=");
    assertThat(info.syncUtime()).isEqualTo(1_700_000_123L);
    assertThat(info.lastTransaction()).isEqualTo(new TransactionId(32_294_193_000_003L,
        "7b3dcb299ab828234d2d153f1b861b53078cef80fdc60fed58ad0dc9fb8d7310"));
  }

  @Test
  void shouldReadMasterchainInfoLastBlock() {
    MasterchainInfo info = parser.masterchainInfo("getMasterchainInfo", ok("getMasterchainInfo", "getMasterchainInfo.json"));

    assertThat(info).isEqualTo(new MasterchainInfo(-1, "-9223372036854775808", 34_167_507L,
        "b4324cd80e1815e7b979d2917d058b30be57209b5be452ead2316f0d7a6fd312",
        "165fb60b31cd82294113844a85fcac2d4f152fc6716167220910ef6b6135f504"));
  }

  @Test
  void shouldReadTheGlobalIdOfMainnetAndTestnetFromConfigParam19() throws IOException {
    for (String network : List.of("mainnet", "testnet")) {
      JsonNode result = ok("getConfigParam", "getConfigParam-19-" + network + ".json");
      // the fixture's cell read by ton4j, a parser independent of ours
      long theirs = org.ton.ton4j.cell.CellSlice.beginParse(org.ton.ton4j.cell.Cell.fromBocBase64(
          result.get("config").get("bytes").asText())).loadInt(32).longValueExact();

      assertThat(parser.globalId("getConfigParam", result)).as(network).isEqualTo((int) theirs)
          .isEqualTo(network.equals("mainnet") ? -239 : -3);
    }
  }

  @Test
  void shouldRefuseAConfigAnswerWithoutACellOrWithAShortOne() {
    assertThatThrownBy(() -> parser.globalId("getConfigParam", new ObjectMapper().readTree(
        "{\"@type\":\"configInfo\",\"config\":{\"@type\":\"tvm.cell\",\"bytes\":\"\"}}")))
        .isInstanceOf(UnexpectedResponseException.class).hasMessageContaining("no 'config.bytes' cell");
    String sixteenBits = org.tonpayouts.ton.cell.TonCell.builder().storeUint(7, 16).endCell().toBase64();
    assertThatThrownBy(() -> parser.globalId("getConfigParam", new ObjectMapper().readTree(
        "{\"config\":{\"bytes\":\"" + sixteenBits + "\"}}")))
        .isInstanceOf(UnexpectedResponseException.class)
        .hasMessageContaining("config parameter 19 has 16 bits; its global_id is an int32");
    assertThatThrownBy(() -> parser.globalId("getConfigParam", new ObjectMapper().readTree(
        "{\"config\":{\"bytes\":\"bm90IGEgYm9j\"}}")))
        .isInstanceOf(UnexpectedResponseException.class).hasMessageContaining("config.bytes is not a cell BOC");
  }

  @Test
  void shouldReadSentMessageHashesAsHex() {
    SentMessage sent = parser.sentMessage("sendBocReturnHash",
        parser.unwrap("sendBocReturnHash", 200, fixture("sendBocReturnHash.json"), Optional.empty(), true));

    assertThat(sent).isEqualTo(new SentMessage(
        "db8a6e674bda8eb1e6eef51e9249c01e3c109ee8ffea3c389f1c1e50af2b6bc2",
        "3fe93897158698e4d473b74414d7493716b0fc3a70310934873f0019daaccab4"));
  }

  @Test
  void shouldReadPythonServerTransactionsNewestFirstWithMessagesAndComments() {
    List<ChainTransaction> txs = parser.transactions("getTransactions",
        ok("getTransactions", "getTransactions-python.json"), DEST);

    assertThat(txs).extracting(t -> t.id().lt())
        .containsExactly(64_902_980_000_001L, 32_450_206_000_003L, 32_450_100_000_001L, 32_450_000_000_001L);
    assertThat(txs).allSatisfy(t -> assertThat(t.account()).as("from the transaction's own address").isEqualTo(WALLET));

    ChainTransaction payout = txs.get(0);
    assertThat(payout.id().hash()).isEqualTo("ac11ceabf4f74a8a96b5af085cbf131f162a4e2dad3a4041f3ef4d2b4b8a5a89");
    assertThat(payout.utime()).isEqualTo(1_700_000_200L);
    assertThat(payout.fee()).isEqualTo(2_855_579L);
    assertThat(payout.storageFee()).isEqualTo(7L);
    assertThat(payout.otherFee()).isEqualTo(2_855_572L);
    assertThat(payout.data()).isEqualTo("te6cckEBAQEAAgAAAEysuc0=");

    ChainMessage external = payout.inMsg();
    assertThat(external.isExternalIn()).isTrue();
    assertThat(external.source()).isNull();
    assertThat(external.destination()).isEqualTo(WALLET);
    assertThat(external.hash()).isEqualTo("db8a6e674bda8eb1e6eef51e9249c01e3c109ee8ffea3c389f1c1e50af2b6bc2");
    assertThat(external.bodyHash()).isEqualTo("3fe93897158698e4d473b74414d7493716b0fc3a70310934873f0019daaccab4");
    assertThat(external.bodyBase64()).isEqualTo("te6cckEBAQEADgAAGA+KfqUAAAAAAAAABzCK6H4=");
    assertThat(external.comment()).as("op is not 0: no comment, whatever 'message' says").isNull();
    assertThat(external.initState()).isNull();

    assertThat(payout.outMsgs()).singleElement().satisfies(out -> {
      assertThat(out.source()).isEqualTo(WALLET);
      assertThat(out.destination()).isEqualTo(DEST);
      assertThat(out.value()).isEqualTo(1_000_000_000L);
      assertThat(out.fwdFee()).isEqualTo(266_669L);
      assertThat(out.createdLt()).isEqualTo(64_902_980_000_002L);
      assertThat(out.comment()).isEqualTo("payout 42: thanks ✓");
      assertThat(out.hash()).isEqualTo("7b3dcb299ab828234d2d153f1b861b53078cef80fdc60fed58ad0dc9fb8d7310");
      assertThat(out.bodyBase64()).isNull();
    });

    ChainMessage hello = txs.get(1).inMsg();
    assertThat(hello.hash()).as("the older server sends no message hash").isNull();
    assertThat(hello.source()).isEqualTo(SENDER);
    assertThat(hello.value()).isEqualTo(1_000_000L);
    assertThat(hello.comment()).isEqualTo("hello 👋");
    assertThat(txs.get(1).outMsgs()).isEmpty();

    assertThat(txs.get(2).inMsg().comment())
        .as("dataRaw comment is decoded from the body, not from 'message' (base64 of the root bits)")
        .isEqualTo("payout 42: thanks ✓");
    assertThat(txs.get(3).inMsg().comment())
        .as("snake comment continued in a reference")
        .isEqualTo("withdrawal w-7f3a to EQ-address, ".repeat(6));
  }

  @Test
  void shouldReadCppServerTransactionsWithNumbersRawAddressesAndUrlSafeHashes() {
    List<ChainTransaction> txs = parser.transactions("getTransactions",
        ok("getTransactions", "getTransactions-cpp.json"), DEST);

    ChainTransaction tx = txs.get(0);
    assertThat(tx.account()).isEqualTo(WALLET);
    assertThat(tx.id()).isEqualTo(new TransactionId(64_902_990_000_001L,
        "3fe93897158698e4d473b74414d7493716b0fc3a70310934873f0019daaccab4"));
    assertThat(tx.fee()).isEqualTo(2_855_579L);
    assertThat(tx.inMsg().hash()).isEqualTo("db8a6e674bda8eb1e6eef51e9249c01e3c109ee8ffea3c389f1c1e50af2b6bc2");
    assertThat(tx.inMsg().source()).isNull();
    assertThat(tx.outMsgs()).hasSize(2);
    assertThat(tx.outMsgs().get(0).destination()).isEqualTo(DEST);
    assertThat(tx.outMsgs().get(0).value()).isEqualTo(1_000_000_000L);
    assertThat(tx.outMsgs().get(0).comment()).isEqualTo("first");
    assertThat(tx.outMsgs().get(1).destination()).as("external-out has no destination").isNull();
    assertThat(tx.outMsgs().get(1).comment()).as("encrypted text is not a comment").isNull();
  }

  @Test
  void shouldFallBackToQueriedAddressAndDecodeBase64TextWithoutMessageField() throws IOException {
    String body = """
        {"ok":true,"result":[{"utime":1,"data":"","transaction_id":{"lt":"7","hash":"%s"},
          "fee":"0","storage_fee":"0","other_fee":"0",
          "in_msg":{"source":"%s","destination":"%s","value":"5","fwd_fee":"0","ihr_fee":"0",
                    "created_lt":"6","body_hash":"","msg_data":{"@type":"msg.dataText","text":"aGVsbG8g8J+Riw=="}},
          "out_msgs":[]}]}
        """.formatted("a".repeat(64), SENDER.toRaw(), DEST.toRaw());

    List<ChainTransaction> txs = parser.transactions("getTransactions",
        parser.unwrap("getTransactions", 200, bytes(body), Optional.empty(), false), DEST);

    assertThat(txs.get(0).account()).isEqualTo(DEST);
    assertThat(txs.get(0).id().hash()).as("hex is accepted too").isEqualTo("a".repeat(64));
    assertThat(txs.get(0).inMsg().comment()).isEqualTo("hello 👋");
    assertThat(txs.get(0).inMsg().bodyHash()).isNull();
    assertThat(txs.get(0).data()).isNull();
  }

  @Test
  void shouldRefuseATransactionWithoutOutMsgsRatherThanReadItAsSendingNothing() {
    String tx = """
        {"ok":true,"result":[{"utime":1,"data":"","transaction_id":{"lt":"7","hash":"%s"},
          "fee":"0","storage_fee":"0","other_fee":"0",
          "in_msg":{"source":"","destination":"%s","value":"0","fwd_fee":"0","ihr_fee":"0",
                    "created_lt":"0","body_hash":"","msg_data":{"@type":"msg.dataRaw","body":""}}%s}]}
        """;
    String missing = tx.formatted("a".repeat(64), DEST.toRaw(), "");
    String notAList = tx.formatted("a".repeat(64), DEST.toRaw(), ",\"out_msgs\":{}");

    // "no out messages" is the evidence of a skipped send (FAILED): it must be said, never assumed
    for (String body : List.of(missing, notAList)) {
      assertThatThrownBy(() -> parser.transactions("getTransactions",
          parser.unwrap("getTransactions", 200, bytes(body), Optional.empty(), false), DEST))
          .isInstanceOf(UnexpectedResponseException.class)
          .hasMessageContaining("getTransactions")
          .hasMessageContaining("out_msgs");
    }
  }

  @Test
  void shouldReadGetMethodStack() {
    JsonNode r = parser.unwrap("runGetMethod", 200, bytes(
        "{\"ok\":true,\"result\":{\"@type\":\"smc.runResult\",\"gas_used\":489,\"stack\":[[\"num\",\"0x1f\"]],\"exit_code\":0}}"),
        Optional.empty(), false);

    GetMethodResult result = parser.getMethodResult("runGetMethod", r);

    assertThat(result.exitCode()).isZero();
    assertThat(result.gasUsed()).isEqualTo(489L);
    assertThat(result.number(0)).isEqualTo(31);
  }

  @Test
  void shouldRejectMalformedAnswersAsUnexpected() {
    assertThatThrownBy(() -> parser.unwrap("getMasterchainInfo", 200, bytes("<html>hi</html>"), Optional.empty(), false))
        .isInstanceOf(UnexpectedResponseException.class)
        .hasMessageContaining("getMasterchainInfo");
    assertThatThrownBy(() -> parser.walletInfo("getWalletInformation", new ObjectMapper().readTree("{\"seqno\":\"five\"}")))
        .isInstanceOf(UnexpectedResponseException.class)
        .hasMessageContaining("seqno");
    assertThatThrownBy(() -> parser.masterchainInfo("getMasterchainInfo", new ObjectMapper().readTree("{\"last\":{\"seqno\":1,\"workchain\":-1,\"root_hash\":\"abc\"}}")))
        .isInstanceOf(UnexpectedResponseException.class)
        .hasMessageContaining("bad hash");
  }

  // ---------------------------------------------------------------- errors

  @Test
  void shouldClassify429WithResultInsteadOfErrorAsRateLimited() {
    byte[] body = bytes("{\"ok\":false,\"result\":\"Ratelimit exceed\",\"code\":429}");

    assertThatThrownBy(() -> parser.unwrap("getWalletInformation", 429, body, Optional.of("2"), false))
        .asInstanceOf(type(RateLimitedException.class))
        .satisfies(e -> {
          assertThat(e.getMessage()).contains("getWalletInformation", "HTTP 429", "Ratelimit exceed");
          assertThat(e.retryAfter()).contains(Duration.ofSeconds(2));
          assertThat(e.isTransient()).isTrue();
          assertThat(e.maybeDelivered()).isFalse();
        });
  }

  @Test
  void shouldClassifyRateLimitCodeInsideA200AsRateLimited() {
    byte[] body = bytes("{\"ok\":false,\"error\":\"Ratelimit exceed\",\"code\":429}");

    assertThatThrownBy(() -> parser.unwrap("getTransactions", 200, body, Optional.empty(), false))
        .isInstanceOf(RateLimitedException.class);
  }

  @ParameterizedTest(name = "exitcode={0}")
  @CsvSource({"33", "34", "35", "36"})
  void shouldClassifyWalletRejectionsWithTheirExitCode(int exitCode) {
    String text = "LITE_SERVER_UNKNOWN: cannot apply external message to current state : External message was "
        + "not accepted\\nCannot run message on account: inbound external message rejected by transaction "
        + "259224DA93A3251D181A226C6351D6F74AC104ECF038DD9C461B367C0A6DA138:\\nexitcode=" + exitCode
        + ", steps=21, gas_used=0\\nVM Log (truncated):\\n...CONT c0\\nexecute THROWIF 33\\ndefault exception handler, terminating vm with exit code "
        + exitCode + "\\n";
    byte[] body = bytes("{\"ok\":false,\"error\":\"" + text + "\",\"code\":500}");

    assertThatThrownBy(() -> parser.unwrap("sendBocReturnHash", 500, body, Optional.empty(), true))
        .asInstanceOf(type(MessageRejectedException.class))
        .satisfies(e -> {
          assertThat(e.exitCode()).isEqualTo(exitCode);
          assertThat(e.isDuplicateSeqno()).isFalse();
          assertThat(e.isSeqnoMismatch()).isEqualTo(exitCode == 33);
          assertThat(e.isSubwalletMismatch()).isEqualTo(exitCode == 34);
          assertThat(e.isBadSignature()).isEqualTo(exitCode == 35);
          assertThat(e.isExpired()).isEqualTo(exitCode == 36);
          assertThat(e.maybeDelivered()).isFalse();
          assertThat(e.getMessage()).contains("sendBocReturnHash", "HTTP 500", "exitcode=" + exitCode);
        });
  }

  @Test
  void shouldClassifyDuplicateSeqnoAsRejection() {
    byte[] body = bytes("{\"ok\":false,\"error\":\"LITE_SERVER_UNKNOWN: cannot apply external message to current "
        + "state : Duplicate msg_seqno 12\",\"code\":500}");

    assertThatThrownBy(() -> parser.unwrap("sendBocReturnHash", 500, body, Optional.empty(), true))
        .asInstanceOf(type(MessageRejectedException.class))
        .satisfies(e -> {
          assertThat(e.isDuplicateSeqno()).isTrue();
          assertThat(e.duplicateSeqno()).isEqualTo(12L);
          assertThat(e.exitCode()).isNull();
          assertThat(e.isSeqnoMismatch()).isTrue();
        });
  }

  @Test
  void shouldTreatLiteserverTimeoutOnSendAsMaybeDelivered() {
    byte[] body = bytes("{\"ok\":false,\"error\":\"Liteserver timeout\",\"code\":504}");

    assertThatThrownBy(() -> parser.unwrap("sendBocReturnHash", 504, body, Optional.empty(), true))
        .asInstanceOf(type(ApiErrorException.class))
        .satisfies(e -> {
          assertThat(e.httpStatus()).isEqualTo(504);
          assertThat(e.code()).isEqualTo(504);
          assertThat(e.text()).isEqualTo("Liteserver timeout");
          assertThat(e.maybeDelivered()).isTrue();
          assertThat(e.isTransient()).isTrue();
        });
    assertThatThrownBy(() -> parser.unwrap("getWalletInformation", 504, body, Optional.empty(), false))
        .asInstanceOf(type(ApiErrorException.class))
        .satisfies(e -> assertThat(e.maybeDelivered()).as("a read delivers nothing").isFalse());
  }

  @Test
  void shouldClassifyClientErrorsAsNonTransientApiErrors() {
    assertThatThrownBy(() -> parser.unwrap("getTransactions", 422,
        bytes("{\"ok\":false,\"error\":\"Validation error: limit must be <= 100\",\"code\":422}"), Optional.empty(), false))
        .asInstanceOf(type(ApiErrorException.class))
        .satisfies(e -> {
          assertThat(e.httpStatus()).isEqualTo(422);
          assertThat(e.isTransient()).isFalse();
        });
    assertThatThrownBy(() -> parser.unwrap("getWalletInformation", 416,
        bytes("{\"ok\":false,\"error\":\"Incorrect address\",\"code\":416}"), Optional.empty(), false))
        .asInstanceOf(type(ApiErrorException.class))
        .satisfies(e -> assertThat(e.text()).isEqualTo("Incorrect address"));
    assertThatThrownBy(() -> parser.unwrap("sendBocReturnHash", 422,
        bytes("{\"ok\":false,\"error\":\"empty boc\",\"code\":422}"), Optional.empty(), true))
        .asInstanceOf(type(ApiErrorException.class))
        .satisfies(e -> assertThat(e.maybeDelivered()).as("refused before sending").isFalse());
  }

  @Test
  void shouldClassify404AsNotFoundAndProxyHtmlAsServerError() {
    assertThatThrownBy(() -> parser.unwrap("getTransactions", 404, bytes("{\"detail\":\"Not Found\"}"), Optional.empty(), false))
        .isInstanceOf(NotFoundException.class)
        .hasMessageContaining("Not Found");
    assertThatThrownBy(() -> parser.unwrap("getTransactions", 502,
        bytes("<html><body><h1>502 Bad Gateway</h1></body></html>"), Optional.empty(), false))
        .asInstanceOf(type(ApiErrorException.class))
        .satisfies(e -> {
          assertThat(e.text()).contains("502 Bad Gateway");
          assertThat(e.code()).isNull();
          assertThat(e.isTransient()).isTrue();
        });
  }

  @Test
  void shouldNeverPutTheApiKeyIntoAnErrorMessage() {
    byte[] body = bytes("{\"ok\":false,\"error\":\"API key " + KEY + " does not exist\",\"code\":401}");

    assertThatThrownBy(() -> parser.unwrap("getMasterchainInfo", 401, body, Optional.empty(), false))
        .isInstanceOf(ApiErrorException.class)
        .satisfies(e -> assertThat(e.getMessage()).doesNotContain(KEY).contains("<api-key>"));
  }
}
