package org.tonpayouts.devnet;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import java.time.Duration;
import java.time.Instant;
import java.util.Base64;
import java.util.HexFormat;
import java.util.Locale;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.tonpayouts.devnet.TestWallet.Send;
import org.tonpayouts.devnet.chain.Fees;
import org.tonpayouts.ton.address.TonAddress;
import org.tonpayouts.ton.keys.WalletKey;
import org.tonpayouts.ton.wallet.SignedTransfer;
import org.tonpayouts.ton.wallet.TransferOrder;

/** devnet accepts what WalletV4R2 accepts and rejects the rest with the contract's exit codes, over HTTP. */
class WalletValidationTest {
  private static final long TON = 1_000_000_000L;
  private static final String NOT_ACCEPTED =
      "LITE_SERVER_UNKNOWN: cannot apply external message to current state : External message was not accepted\n"
          + "Cannot run message on account: inbound external message rejected ";

  private Devnet devnet;
  private Http http;
  private final TestWallet wallet = new TestWallet(1, 698983191L);
  private final TonAddress recipient = TestWallet.someAddress(1);

  @BeforeEach
  void start() {
    devnet = Devnet.builder().blockInterval(Duration.ofMillis(50)).start();
    http = new Http(devnet);
  }

  @AfterEach
  void stop() {
    devnet.close();
  }

  private Instant inAMinute() {
    return Instant.now().plusSeconds(60);
  }

  private TransferOrder pay(long amount) {
    return new TransferOrder(recipient, amount, "payout", false);
  }

  /** Funds the wallet and deploys it with a first transfer (seqno 0 with StateInit); returns at seqno 1. */
  private void deploy() {
    devnet.fund(wallet.address, 10 * TON);
    Http.Response sent = http.post("sendBoc", Map.of("boc", wallet.sign(0, inAMinute(), pay(TON / 10)).boc()));
    assertThat(sent.status()).isEqualTo(200);
    await().atMost(Duration.ofSeconds(5)).pollInterval(Duration.ofMillis(10))
        .until(() -> devnet.seqno(wallet.address) == 1);
  }

  private Http.Response send(String boc) {
    return http.post("sendBocReturnHash", Map.of("boc", boc));
  }

  private void assertRejected(Http.Response response, int exitCode) {
    assertThat(response.status()).isEqualTo(500);
    assertThat(response.body().get("ok").asBoolean()).isFalse();
    assertThat(response.body().get("code").asInt()).isEqualTo(500);
    String accountHex = HexFormat.of().formatHex(wallet.address.hash()).toUpperCase();
    assertThat(response.error())
        .startsWith(NOT_ACCEPTED + "by transaction " + accountHex + ":\nexitcode=" + exitCode + ", steps=")
        .contains("gas_used=0");
  }

  /** Rejections leave nothing: same transactions, same seqno, also after the next blocks. */
  private void assertNoTrace(int transactionsBefore, long seqnoBefore) {
    devnet.awaitBlocks(2);
    assertThat(devnet.transactions(wallet.address)).hasSize(transactionsBefore);
    assertThat(devnet.seqno(wallet.address)).isEqualTo(seqnoBefore);
    assertThat(devnet.stats().pending()).isZero();
  }

  @Test
  void shouldDeployWithStateInitAndConfirmWithinOneBlock() {
    devnet.fund(wallet.address, 2 * TON);
    assertThat(http.get("getWalletInformation", Map.of("address", wallet.friendly())).result().get("account_state")
        .asText()).isEqualTo("uninitialized");
    SignedTransfer transfer = wallet.sign(0, inAMinute(), pay(TON / 2));

    long blockBefore = devnet.masterchainSeqno();
    Http.Response sent = send(transfer.boc());
    long blockAfterSend = devnet.masterchainSeqno();

    assertThat(sent.status()).isEqualTo(200);
    assertThat(sent.result().get("@type").asText()).isEqualTo("raw.extMessageInfo");
    assertThat(sent.result().get("hash").asText()).isEqualTo(b64(transfer.messageHash()));
    assertThat(sent.result().get("hash_norm").asText()).isEqualTo(b64(transfer.normalizedHash()));
    await().atMost(Duration.ofSeconds(5)).pollInterval(Duration.ofMillis(5))
        .until(() -> http.walletSeqno(wallet.friendly()) == 1);
    // queued before the answer came back, so the first block started after the answer has it
    assertThat(devnet.transactions(wallet.address).get(1).blockSeqno()).isBetween(blockBefore + 1, blockAfterSend + 1);

    JsonNode info = http.get("getWalletInformation", Map.of("address", wallet.friendly())).result();
    assertThat(info.get("wallet").asBoolean()).isTrue();
    assertThat(info.get("account_state").asText()).isEqualTo("active");
    assertThat(info.get("wallet_type").asText()).isEqualTo("wallet v4 r2");
    assertThat(info.get("wallet_id").asLong()).isEqualTo(698983191L);
    JsonNode txs = http.get("getTransactions", Map.of("address", wallet.friendly(), "limit", "10")).result();
    assertThat(txs).hasSize(2); // the devnet funding, then the transfer
    assertThat(txs.get(0).get("in_msg").get("hash").asText()).isEqualTo(b64(transfer.messageHash()));
    assertThat(txs.get(0).get("in_msg").get("source").asText()).isEmpty();
    assertThat(devnet.balance(wallet.address))
        .isEqualTo(2 * TON - TON / 2 - Fees.COMPUTE_FEE - Fees.FORWARD_FEE);
  }

  @Test
  void shouldRejectUninitializedWalletWithoutStateInit() {
    devnet.fund(wallet.address, TON);
    String boc = wallet.raw(wallet.key, wallet.subwalletId, inAMinute().getEpochSecond(), 0, false,
        new Send(3, recipient, TON / 10, null, false));

    Http.Response response = send(boc);

    assertThat(response.status()).isEqualTo(500);
    String accountHex = HexFormat.of().formatHex(wallet.address.hash()).toUpperCase(Locale.ROOT);
    assertThat(response.error()).as("the real node's words: a transaction that ran no code")
        .startsWith(NOT_ACCEPTED + "by transaction " + accountHex + ":\nexitcode=0, steps=0, gas_used=0");
    assertNoTrace(1, 0);
    assertThat(devnet.account(wallet.address).state().toncenterName()).isEqualTo("uninitialized");
  }

  @Test
  void shouldRejectWrongSeqnoWith33() {
    deploy();
    int txs = devnet.transactions(wallet.address).size();

    assertRejected(send(wallet.sign(5, inAMinute(), pay(TON)).boc()), 33);
    assertRejected(send(wallet.sign(0, inAMinute(), pay(TON)).boc()), 33); // an already used seqno

    assertNoTrace(txs, 1);
  }

  @Test
  void shouldRejectWrongSubwalletIdWith34() {
    deploy();
    int txs = devnet.transactions(wallet.address).size();
    String boc = wallet.raw(wallet.key, wallet.subwalletId + 1, inAMinute().getEpochSecond(), 1, false,
        new Send(3, recipient, TON, null, false));

    assertRejected(send(boc), 34);

    assertNoTrace(txs, 1);
  }

  @Test
  void shouldRejectBadSignatureWith35() {
    deploy();
    int txs = devnet.transactions(wallet.address).size();
    WalletKey stranger = new TestWallet(99, wallet.subwalletId).key;
    String boc = wallet.raw(stranger, wallet.subwalletId, inAMinute().getEpochSecond(), 1, false,
        new Send(3, recipient, TON, null, false));

    assertRejected(send(boc), 35);

    assertNoTrace(txs, 1);
  }

  @Test
  void shouldRejectExpiredMessageWith36() {
    deploy();
    int txs = devnet.transactions(wallet.address).size();

    assertRejected(send(wallet.sign(1, Instant.now().minusSeconds(1), pay(TON)).boc()), 36);

    assertNoTrace(txs, 1);
  }

  @Test
  void shouldCheckInTheContractsOrder() {
    deploy();
    long now = Instant.now().getEpochSecond();
    WalletKey stranger = new TestWallet(99, wallet.subwalletId).key;
    Send send = new Send(3, recipient, TON, null, false);

    // expired beats a wrong seqno, a wrong seqno beats a wrong subwallet, a wrong subwallet beats a bad signature
    assertRejected(send(wallet.raw(stranger, 1, now - 10, 7, false, send)), 36);
    assertRejected(send(wallet.raw(stranger, 1, now + 60, 7, false, send)), 33);
    assertRejected(send(wallet.raw(stranger, 1, now + 60, 1, false, send)), 34);
    assertRejected(send(wallet.raw(stranger, wallet.subwalletId, now + 60, 1, false, send)), 35);
  }

  @Test
  void shouldRejectWhenTheBalanceCannotPayTheComputeFee() {
    devnet.fund(wallet.address, Fees.COMPUTE_FEE - 1);

    assertRejected(send(wallet.sign(0, inAMinute(), pay(1)).boc()), -14);

    assertNoTrace(1, 0);
  }

  @Test
  void shouldAnswerMalformedBocWith400() {
    Http.Response notBase64 = http.post("sendBoc", Map.of("boc", "%%%not base64%%%"));
    Http.Response notABoc = http.post("sendBoc", Map.of("boc", Base64.getEncoder().encodeToString(new byte[] {1, 2, 3})));

    assertThat(notBase64.status()).isEqualTo(400);
    assertThat(notBase64.error()).startsWith("Invalid BOC");
    assertThat(notABoc.status()).isEqualTo(400);
    assertThat(notABoc.error()).startsWith("Invalid BOC");
    assertThat(notABoc.body().get("ok").asBoolean()).isFalse();
  }

  @Test
  void shouldAcceptTheSameBocAgainButApplyItOnce() {
    deploy();
    SignedTransfer transfer = wallet.sign(1, inAMinute(), pay(TON));
    assertThat(send(transfer.boc()).status()).isEqualTo(200);
    await().atMost(Duration.ofSeconds(5)).until(() -> devnet.seqno(wallet.address) == 2);

    assertRejected(send(transfer.boc()), 33);

    assertThat(devnet.transactions(wallet.address))
        .filteredOn(tx -> tx.inMsg().hash().equals(transfer.messageHash())).hasSize(1);
  }

  static String b64(String hex) {
    return Base64.getEncoder().encodeToString(HexFormat.of().parseHex(hex));
  }
}
