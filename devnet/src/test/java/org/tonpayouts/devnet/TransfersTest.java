package org.tonpayouts.devnet;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;
import static org.tonpayouts.devnet.WalletValidationTest.b64;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.tonpayouts.devnet.TestWallet.Send;
import org.tonpayouts.devnet.chain.AccountState;
import org.tonpayouts.devnet.chain.DevnetTransaction;
import org.tonpayouts.devnet.chain.Fees;
import org.tonpayouts.ton.address.TonAddress;
import org.tonpayouts.ton.wallet.SignedTransfer;
import org.tonpayouts.ton.wallet.TransferOrder;

/** What an applied wallet message does on chain, seen through getTransactions and devnet's introspection. */
class TransfersTest {
  private static final long TON = 1_000_000_000L;

  private Devnet devnet;
  private Http http;
  private final TestWallet wallet = new TestWallet(2, 698983191L);

  private void start(Duration blockInterval) {
    devnet = Devnet.builder().blockInterval(blockInterval).start();
    http = new Http(devnet);
  }

  @AfterEach
  void stop() {
    devnet.close();
  }

  private static Instant inAMinute() {
    return Instant.now().plusSeconds(60);
  }

  private Http.Response send(String boc) {
    return http.post("sendBocReturnHash", Map.of("boc", boc));
  }

  private JsonNode transactions(TonAddress address) {
    return http.get("getTransactions", Map.of("address", address.toFriendly(true, false), "limit", "100")).result();
  }

  private static String text(String comment) {
    return Base64.getEncoder().encodeToString(comment.getBytes(StandardCharsets.UTF_8));
  }

  @Test
  void shouldShowTheTransferOnBothSides() {
    start(Duration.ofMillis(50));
    TonAddress user = TestWallet.someAddress(2);
    devnet.fund(wallet.address, 5 * TON);
    devnet.fund(user, TON, true);
    SignedTransfer transfer = wallet.sign(0, inAMinute(),
        new TransferOrder(user, 1_234_567_890L, "payout #42 for order 9f3a", true),
        new TransferOrder(TestWallet.someAddress(3), 100_000_000L, null, false));

    assertThat(send(transfer.boc()).status()).isEqualTo(200);
    await().atMost(Duration.ofSeconds(5)).until(() -> transactions(user).size() == 2);

    JsonNode sent = transactions(wallet.address).get(0);
    assertThat(sent.get("@type").asText()).isEqualTo("raw.transaction");
    assertThat(sent.get("address").get("account_address").asText()).isEqualTo(wallet.friendly());
    assertThat(sent.get("transaction_id").get("@type").asText()).isEqualTo("internal.transactionId");
    assertThat(sent.get("in_msg").get("hash").asText()).isEqualTo(b64(transfer.messageHash()));
    assertThat(sent.get("in_msg").get("msg_data").get("@type").asText()).isEqualTo("msg.dataRaw");
    assertThat(sent.get("in_msg").get("msg_data").get("init_state").asText()).isNotEmpty(); // deployed with it
    assertThat(sent.get("fee").asText()).isEqualTo(Long.toString(Fees.COMPUTE_FEE + 2 * Fees.FORWARD_FEE));
    JsonNode outs = sent.get("out_msgs");
    assertThat(outs).hasSize(2);
    JsonNode out = outs.get(0);
    assertThat(out.get("source").asText()).isEqualTo(wallet.friendly());
    assertThat(out.get("destination").asText()).isEqualTo(user.toFriendly(true, false));
    assertThat(out.get("value").asText()).isEqualTo("1234567890");
    assertThat(out.get("fwd_fee").asText()).isEqualTo(Long.toString(Fees.FORWARD_FEE));
    assertThat(out.get("msg_data").get("@type").asText()).isEqualTo("msg.dataText");
    assertThat(out.get("msg_data").get("text").asText()).isEqualTo(text("payout #42 for order 9f3a"));
    assertThat(out.get("message").asText()).isEqualTo("payout #42 for order 9f3a");
    assertThat(Long.parseLong(out.get("created_lt").asText()))
        .isGreaterThan(Long.parseLong(sent.get("transaction_id").get("lt").asText()));
    assertThat(outs.get(1).get("msg_data").get("@type").asText()).isEqualTo("msg.dataRaw");

    JsonNode received = transactions(user).get(0);
    JsonNode in = received.get("in_msg");
    assertThat(in.get("hash").asText()).isEqualTo(out.get("hash").asText());
    assertThat(in.get("source").asText()).isEqualTo(wallet.friendly());
    assertThat(in.get("value").asText()).isEqualTo("1234567890");
    assertThat(in.get("message").asText()).isEqualTo("payout #42 for order 9f3a");
    assertThat(in.get("body_hash").asText()).isEqualTo(out.get("body_hash").asText());
    assertThat(devnet.balance(user)).isEqualTo(TON + 1_234_567_890L - Fees.RECEIVE_FEE);
    assertThat(devnet.balance(wallet.address))
        .isEqualTo(5 * TON - 1_234_567_890L - 100_000_000L - Fees.COMPUTE_FEE - 2 * Fees.FORWARD_FEE);
  }

  @Test
  void shouldDeliverABounceTheConfiguredNumberOfBlocksLaterWhenBouncesAreDelayed() {
    start(Duration.ZERO);
    TonAddress nobody = TestWallet.someAddress(5);
    devnet.fund(wallet.address, 5 * TON);
    devnet.delayBounces(3);
    assertThat(send(wallet.sign(0, inAMinute(), new TransferOrder(nobody, TON, "to nobody", true)).boc()).status())
        .isEqualTo(200);

    long paidIn = devnet.produceBlock().seqno();
    devnet.produceBlock();
    devnet.produceBlock();
    assertThat(devnet.transactions(wallet.address)).as("the faucet's and the payout's; the bounce is on its way")
        .hasSize(2);
    assertThat(devnet.transactions(nobody)).singleElement()
        .satisfies(tx -> assertThat(tx.outMsgs()).singleElement().satisfies(m -> assertThat(m.bounced()).isTrue()));

    long backIn = devnet.produceBlock().seqno();

    assertThat(backIn).isEqualTo(paidIn + 3);
    assertThat(devnet.transactions(wallet.address)).hasSize(3).last()
        .satisfies(tx -> assertThat(tx.inMsg().bounced()).isTrue());
    assertThat(devnet.balance(wallet.address))
        .isEqualTo(5 * TON - Fees.COMPUTE_FEE - Fees.FORWARD_FEE - Fees.BOUNCE_FEE - Fees.RECEIVE_FEE);
  }

  @Test
  void shouldBounceABounceableTransferToAnAccountThatCannotTakeIt() {
    start(Duration.ofMillis(50));
    TonAddress nobody = TestWallet.someAddress(4);
    devnet.fund(wallet.address, 5 * TON);

    assertThat(send(wallet.sign(0, inAMinute(), new TransferOrder(nobody, TON, "to nobody", true)).boc()).status())
        .isEqualTo(200);
    await().atMost(Duration.ofSeconds(5)).until(() -> transactions(wallet.address).size() == 3);

    JsonNode recipientTx = transactions(nobody).get(0);
    assertThat(recipientTx.get("in_msg").get("value").asText()).isEqualTo(Long.toString(TON));
    assertThat(recipientTx.get("out_msgs")).hasSize(1);
    JsonNode bounce = recipientTx.get("out_msgs").get(0);
    assertThat(bounce.get("destination").asText()).isEqualTo(wallet.friendly());
    assertThat(bounce.get("value").asText()).isEqualTo(Long.toString(TON - Fees.BOUNCE_FEE));

    JsonNode bouncedBack = transactions(wallet.address).get(0);
    assertThat(bouncedBack.get("in_msg").get("source").asText()).isEqualTo(nobody.toFriendly(true, false));
    assertThat(bouncedBack.get("in_msg").get("value").asText()).isEqualTo(Long.toString(TON - Fees.BOUNCE_FEE));
    assertThat(devnet.transactions(wallet.address).get(2).inMsg().bounced()).isTrue();
    assertThat(devnet.account(nobody).state()).isEqualTo(AccountState.NONEXISTENT);
    assertThat(devnet.balance(wallet.address))
        .isEqualTo(5 * TON - Fees.COMPUTE_FEE - Fees.FORWARD_FEE - Fees.BOUNCE_FEE - Fees.RECEIVE_FEE);
  }

  @Test
  void shouldCreditANonBounceableTransferToANewAccount() {
    start(Duration.ofMillis(50));
    TonAddress fresh = TestWallet.someAddress(5);
    devnet.fund(wallet.address, 5 * TON);

    send(wallet.sign(0, inAMinute(), new TransferOrder(fresh, TON, null, false)).boc());
    await().atMost(Duration.ofSeconds(5)).until(() -> devnet.balance(fresh) == TON);

    assertThat(devnet.account(fresh).state()).isEqualTo(AccountState.UNINITIALIZED);
    assertThat(transactions(fresh).get(0).get("out_msgs")).isEmpty();
  }

  @Test
  void shouldApplyOnlyOneOfTwoMessagesWithTheSameSeqno() {
    start(Duration.ZERO); // blocks only when the test says so: both messages meet in one block
    TonAddress a = TestWallet.someAddress(6);
    TonAddress b = TestWallet.someAddress(7);
    devnet.fund(wallet.address, 5 * TON);
    SignedTransfer first = wallet.sign(0, inAMinute(), new TransferOrder(a, TON, null, false));
    SignedTransfer second = wallet.sign(0, inAMinute(), new TransferOrder(b, 2 * TON, null, false));

    assertThat(send(first.boc()).status()).isEqualTo(200);
    assertThat(send(second.boc()).status()).isEqualTo(200); // both pass the liteserver check
    devnet.produceBlock();

    assertThat(devnet.seqno(wallet.address)).isEqualTo(1);
    assertThat(devnet.balance(a)).isEqualTo(TON);
    assertThat(devnet.balance(b)).isZero();
    assertThat(devnet.transactions(wallet.address)).extracting(tx -> tx.inMsg().hash())
        .contains(first.messageHash()).doesNotContain(second.messageHash());
    assertThat(devnet.stats().vanished()).isEqualTo(1);
    assertThat(devnet.stats().pending()).isZero();
    devnet.produceBlock();
    assertThat(devnet.transactions(wallet.address)).extracting(tx -> tx.inMsg().hash())
        .doesNotContain(second.messageHash());
  }

  @Test
  void shouldSkipAnUnaffordableSendWithMode3AndConsumeTheSeqno() {
    start(Duration.ZERO);
    devnet.fund(wallet.address, TON / 100);

    assertThat(send(wallet.sign(0, inAMinute(), new TransferOrder(TestWallet.someAddress(8), TON, null, false)).boc())
        .status()).isEqualTo(200);
    devnet.produceBlock();

    DevnetTransaction tx = devnet.transactions(wallet.address).get(1);
    assertThat(tx.aborted()).isFalse();
    assertThat(tx.outMsgs()).isEmpty();
    assertThat(tx.description()).contains("skipped 1 send");
    assertThat(devnet.seqno(wallet.address)).isEqualTo(1);
    assertThat(devnet.balance(wallet.address)).isEqualTo(TON / 100 - Fees.COMPUTE_FEE);
    assertThat(devnet.stats().pending()).isZero();
  }

  @Test
  void shouldAbortAnUnaffordableSendWithMode1AndApplyItOnceToppedUp() {
    start(Duration.ZERO);
    TonAddress user = TestWallet.someAddress(9);
    devnet.fund(wallet.address, TON / 100);
    String boc = wallet.raw(wallet.key, wallet.subwalletId, inAMinute().getEpochSecond(), 0, true,
        new Send(1, user, TON, "mode 1", false));

    assertThat(send(boc).status()).isEqualTo(200);
    devnet.produceBlock();

    List<DevnetTransaction> txs = devnet.transactions(wallet.address);
    assertThat(txs).hasSize(2);
    assertThat(txs.get(1).aborted()).isTrue();
    assertThat(txs.get(1).outMsgs()).isEmpty();
    assertThat(txs.get(1).totalFee()).isEqualTo(Fees.COMPUTE_FEE);
    assertThat(devnet.seqno(wallet.address)).isZero();
    assertThat(devnet.account(wallet.address).state()).isEqualTo(AccountState.UNINITIALIZED);
    assertThat(devnet.stats().pending()).isEqualTo(1);

    assertThat(send(boc).status()).isEqualTo(200); // re-sent as SDKs do: still valid, one mempool copy
    devnet.produceBlock(); // still unaffordable: retried, no second aborted transaction
    assertThat(devnet.transactions(wallet.address)).hasSize(2);
    assertThat(devnet.stats().pending()).isEqualTo(1);

    devnet.fund(wallet.address, 2 * TON);
    devnet.produceBlock();

    DevnetTransaction applied = devnet.transactions(wallet.address).get(3);
    assertThat(applied.aborted()).isFalse();
    assertThat(applied.inMsg().hash()).isEqualTo(txs.get(1).inMsg().hash());
    assertThat(applied.outMsgs()).singleElement()
        .satisfies(m -> assertThat(m.value()).isEqualTo(TON)); // mode 1 = +1: fees paid on top
    assertThat(devnet.seqno(wallet.address)).isEqualTo(1);
    assertThat(devnet.balance(user)).isEqualTo(TON);
    assertThat(devnet.balance(wallet.address))
        .isEqualTo(TON / 100 + 2 * TON - 2 * Fees.COMPUTE_FEE - TON - Fees.FORWARD_FEE); // the abort paid gas once
    assertThat(devnet.stats().pending()).isZero();
  }

  @Test
  void shouldForgetAnAbortedMode1MessageOnceItsValidUntilHasPassed() {
    ManualClock clock = ManualClock.fixedAt(Instant.parse("2026-03-01T12:00:00Z"));
    devnet = Devnet.builder().blockInterval(Duration.ZERO).clock(clock).start();
    http = new Http(devnet);
    TonAddress user = TestWallet.someAddress(15);
    devnet.fund(wallet.address, TON / 100);
    long validUntil = clock.instant().getEpochSecond() + 60;
    String boc = wallet.raw(wallet.key, wallet.subwalletId, validUntil, 0, true, new Send(1, user, TON, null, false));
    assertThat(send(boc).status()).isEqualTo(200);
    devnet.produceBlock();
    assertThat(devnet.transactions(wallet.address).get(1).aborted()).isTrue();
    assertThat(devnet.stats().pending()).as("still valid: kept").isEqualTo(1);

    clock.advance(Duration.ofSeconds(60));
    devnet.produceBlock();
    devnet.fund(wallet.address, 2 * TON);
    devnet.produceBlock();

    assertThat(devnet.stats().pending()).as("valid_until passed: gone").isZero();
    assertThat(devnet.stats().vanished()).isEqualTo(1);
    assertThat(devnet.seqno(wallet.address)).isZero();
    assertThat(devnet.balance(user)).as("a top-up after valid_until applies nothing").isZero();
    assertThat(devnet.transactions(wallet.address)).hasSize(3); // funding, the abort, the top-up
    assertThat(send(boc).status()).as("and the node refuses it now").isEqualTo(500);
  }

  @Test
  void shouldCarryTheWholeBalanceWithMode128() {
    start(Duration.ZERO);
    TonAddress sweep = TestWallet.someAddress(10);
    devnet.fund(wallet.address, 3 * TON);
    String boc = wallet.raw(wallet.key, wallet.subwalletId, inAMinute().getEpochSecond(), 0, true,
        new Send(128, sweep, 0, "sweep", false));

    send(boc);
    devnet.produceBlock();

    assertThat(devnet.balance(wallet.address)).isZero();
    assertThat(devnet.balance(sweep)).isEqualTo(3 * TON - Fees.COMPUTE_FEE - Fees.FORWARD_FEE);
    assertThat(devnet.account(wallet.address).state()).isEqualTo(AccountState.ACTIVE);
    assertThat(devnet.seqno(wallet.address)).isEqualTo(1);
  }

  @Test
  void shouldTakeTheForwardingFeeFromTheValueWithoutMode1() {
    start(Duration.ZERO);
    TonAddress user = TestWallet.someAddress(13);
    devnet.fund(wallet.address, 3 * TON);
    String boc = wallet.raw(wallet.key, wallet.subwalletId, inAMinute().getEpochSecond(), 0, true,
        new Send(0, user, TON, null, false), new Send(64, user, TON / 2, null, false));

    send(boc);
    devnet.produceBlock();

    assertThat(devnet.balance(user)).isEqualTo(TON - Fees.FORWARD_FEE + TON / 2 - Fees.FORWARD_FEE);
    assertThat(devnet.balance(wallet.address)).isEqualTo(3 * TON - Fees.COMPUTE_FEE - TON - TON / 2);
  }

  @Test
  void shouldDestroyAWalletEmptiedWithMode160AndResetItsSeqno() {
    start(Duration.ZERO);
    devnet.fund(wallet.address, TON);
    String boc = wallet.raw(wallet.key, wallet.subwalletId, inAMinute().getEpochSecond(), 0, true,
        new Send(128 + 32, TestWallet.someAddress(14), 0, null, false));

    send(boc);
    devnet.produceBlock();

    assertThat(devnet.account(wallet.address).state()).isEqualTo(AccountState.NONEXISTENT);
    assertThat(devnet.seqno(wallet.address)).isZero(); // why payout wallets never use +32 (TON-FACTS)
    devnet.fund(wallet.address, TON);
    assertThat(send(boc).status()).as("the old message applies again after a refill").isEqualTo(200);
  }

  @Test
  void shouldApplyAForeignTransferThatConsumesTheSeqno() {
    start(Duration.ZERO);
    TonAddress other = TestWallet.someAddress(11);
    devnet.fund(wallet.address, 5 * TON);
    send(wallet.sign(0, inAMinute(), new TransferOrder(other, TON / 10, null, false)).boc());
    devnet.produceBlock();
    SignedTransfer ours = wallet.sign(1, inAMinute(), new TransferOrder(other, TON / 10, "ours", false));
    assertThat(send(ours.boc()).status()).isEqualTo(200);

    Http.Response queued = http.admin("foreign-transfer", Map.of(
        "wallet", wallet.friendly(), "destination", other.toRaw(), "amount", "700000000", "comment", "not ours"));
    assertThat(queued.status()).isEqualTo(200);
    devnet.produceBlock();

    assertThat(devnet.seqno(wallet.address)).isEqualTo(2);
    DevnetTransaction foreign = devnet.transactions(wallet.address).get(2);
    assertThat(foreign.inMsg().external()).isTrue();
    assertThat(foreign.outMsgs()).singleElement().satisfies(m -> {
      assertThat(m.value()).isEqualTo(700_000_000L);
      assertThat(m.comment()).isEqualTo("not ours");
    });
    assertThat(devnet.transactions(wallet.address)).extracting(tx -> tx.inMsg().hash())
        .doesNotContain(ours.messageHash());
    assertThat(devnet.stats().foreignTransfers()).isEqualTo(1);
    assertThat(devnet.stats().vanished()).isEqualTo(1);
  }

  @Test
  void shouldPageTransactionsNewestFirst() {
    start(Duration.ZERO);
    TonAddress user = TestWallet.someAddress(12);
    devnet.fund(wallet.address, 50 * TON);
    for (int seqno = 0; seqno < 5; seqno++) {
      send(wallet.sign(seqno, inAMinute(), new TransferOrder(user, TON + seqno, null, false)).boc());
      devnet.produceBlock();
    }
    List<DevnetTransaction> all = devnet.transactions(wallet.address); // funding + 5 transfers, oldest first
    assertThat(all).hasSize(6);
    String address = wallet.friendly();

    JsonNode newest = http.get("getTransactions", Map.of("address", address, "limit", "2")).result();
    assertThat(newest).hasSize(2);
    assertThat(newest.get(0).get("transaction_id").get("lt").asText()).isEqualTo(Long.toString(all.get(5).lt()));
    assertThat(newest.get(1).get("transaction_id").get("lt").asText()).isEqualTo(Long.toString(all.get(4).lt()));

    DevnetTransaction from = all.get(3);
    JsonNode page = http.get("getTransactions", Map.of("address", address, "limit", "10",
        "lt", Long.toString(from.lt()), "hash", b64(from.hash()), "to_lt", Long.toString(all.get(1).lt()))).result();
    assertThat(page).extracting(tx -> tx.get("transaction_id").get("lt").asLong())
        .containsExactly(all.get(3).lt(), all.get(2).lt()); // start inclusive, to_lt exclusive

    JsonNode byHexHash = http.post("getTransactions", Map.of("address", wallet.address.toRaw(), "limit", 1,
        "lt", from.lt(), "hash", from.hash())).result();
    assertThat(byHexHash.get(0).get("transaction_id").get("hash").asText()).isEqualTo(b64(from.hash()));

    Http.Response unknown = http.get("getTransactions", Map.of("address", address, "lt", "5", "hash", b64(from.hash())));
    assertThat(unknown.status()).isEqualTo(500);
    Http.Response tooMany = http.get("getTransactions", Map.of("address", address, "limit", "101"));
    assertThat(tooMany.status()).isEqualTo(422);
  }
}
