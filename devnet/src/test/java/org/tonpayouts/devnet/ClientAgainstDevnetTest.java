package org.tonpayouts.devnet;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.InstanceOfAssertFactories.type;
import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.stream.LongStream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.tonpayouts.ton.address.TonAddress;
import org.tonpayouts.ton.api.ApiErrorException;
import org.tonpayouts.ton.api.ChainMessage;
import org.tonpayouts.ton.api.ChainTransaction;
import org.tonpayouts.ton.api.MasterchainInfo;
import org.tonpayouts.ton.api.MessageRejectedException;
import org.tonpayouts.ton.api.RateLimitedException;
import org.tonpayouts.ton.api.SentMessage;
import org.tonpayouts.ton.api.TonApiClient;
import org.tonpayouts.ton.api.TonApiConfig;
import org.tonpayouts.ton.api.TransactionId;
import org.tonpayouts.ton.api.TransportException;
import org.tonpayouts.ton.api.WalletInfo;
import org.tonpayouts.ton.keys.WalletKey;
import org.tonpayouts.ton.wallet.SignedTransfer;
import org.tonpayouts.ton.wallet.Subwallets;
import org.tonpayouts.ton.wallet.TransferOrder;
import org.tonpayouts.ton.wallet.TransferSigner;

/**
 * The TON HTTP API client end to end against devnet: fresh seqno reads, sending ton4j-signed
 * WalletV4R2 transfers, finding them again by message hash, paging, rejections and API faults.
 * The same client code talks to toncenter in production.
 */
class ClientAgainstDevnetTest {
  private static final long TON = 1_000_000_000L;
  private static final long SUBWALLET = Subwallets.DEFAULT_SUBWALLET_ID;
  private static final Duration BLOCK = Duration.ofMillis(100);
  private static final Duration DEADLINE = Duration.ofSeconds(10);

  private final Subwallets subwallets = new Subwallets(
      WalletKey.fromSeed(HexFormat.of().parseHex("5eed00000000000000000000000000000000000000000000000000000000c11e")),
      TonAddress.BASECHAIN);
  private final TransferSigner signer = new TransferSigner(subwallets);
  private final TonAddress wallet = subwallets.address(SUBWALLET);
  private final TonAddress user = TonAddress.parse("0:" + "ab".repeat(32));

  private Devnet devnet;
  private TonApiClient client;

  @BeforeEach
  void startDevnet() {
    devnet = Devnet.builder().blockInterval(BLOCK).seed(7).start();
    client = new TonApiClient(config());
    devnet.fund(wallet, 10 * TON);
    devnet.fund(user, TON, true);
  }

  @AfterEach
  void stopDevnet() {
    client.close();
    devnet.close();
  }

  private TonApiConfig config() {
    return TonApiConfig.of(devnet.baseUrl())
        .withApiKey("devnet-ignores-keys")
        .withRequestsPerSecond(500)
        .withCallTimeout(Duration.ofSeconds(5))
        .withMaxReadAttempts(3)
        .withRetryBackoff(Duration.ofMillis(20));
  }

  private SignedTransfer sign(long seqno, TransferOrder... orders) {
    return signer.sign(SUBWALLET, seqno, Instant.now().plusSeconds(60), List.of(orders));
  }

  private static TransferOrder pay(TonAddress to, long nano, String comment) {
    return new TransferOrder(to, nano, comment, false);
  }

  /** Fresh seqno read, sign, send, and wait until the wallet's seqno moved past it. */
  private SentMessage sendAndConfirm(TransferOrder order) {
    long seqno = client.getSeqno(wallet).join();
    SentMessage sent = client.sendBocReturnHash(sign(seqno, order).boc()).join();
    awaitSeqno(seqno + 1);
    return sent;
  }

  private void awaitSeqno(long expected) {
    await().atMost(DEADLINE).pollInterval(Duration.ofMillis(20))
        .until(() -> client.getSeqno(wallet).join() >= expected);
    assertThat(client.getSeqno(wallet).join()).isEqualTo(expected);
  }

  private static Throwable failureOf(CompletableFuture<?> future) {
    assertThatThrownBy(future::join).isInstanceOf(CompletionException.class);
    return future.handle((v, e) -> e instanceof CompletionException ? e.getCause() : e).join();
  }

  private Optional<ChainTransaction> findByInMessageHash(TonAddress account, String hash) {
    return client.getTransactions(account, 20, null, null).join().stream()
        .filter(tx -> tx.inMsg() != null && hash.equals(tx.inMsg().hash()))
        .findFirst();
  }

  // ---------------------------------------------------------------- the happy path

  @Test
  void shouldSendASignedTransferAndFindItOnBothSidesByMessageHash() {
    assertThat(client.getSeqno(wallet).join()).as("an undeployed wallet starts at seqno 0").isZero();
    WalletInfo before = client.getWalletInformation(wallet).join();
    assertThat(before.isUninitialized()).isTrue();
    assertThat(before.balance()).isEqualTo(10 * TON);

    SignedTransfer signed = sign(0, pay(user, TON / 4, "payout #1 ✓ thanks"));
    SentMessage sent = client.sendBocReturnHash(signed.boc()).join();

    assertThat(sent.hash()).as("the API's hash is ours").isEqualTo(signed.messageHash());
    assertThat(sent.hashNorm()).isEqualTo(signed.normalizedHash());
    awaitSeqno(1);

    ChainTransaction ours = findByInMessageHash(wallet, sent.hash()).orElseThrow();
    assertThat(ours.account()).isEqualTo(wallet);
    assertThat(ours.inMsg().isExternalIn()).isTrue();
    assertThat(ours.inMsg().destination()).isEqualTo(wallet);
    assertThat(ours.fee()).isPositive();
    assertThat(ours.outMsgs()).singleElement().satisfies(out -> {
      assertThat(out.source()).isEqualTo(wallet);
      assertThat(out.destination()).isEqualTo(user);
      assertThat(out.value()).isEqualTo(TON / 4);
      assertThat(out.comment()).isEqualTo("payout #1 ✓ thanks");
    });

    await().atMost(DEADLINE).until(() -> client.getTransactions(user, 10, null, null).join().stream()
        .anyMatch(tx -> tx.inMsg() != null && wallet.equals(tx.inMsg().source())));
    ChainMessage received = client.getTransactions(user, 10, null, null).join().stream()
        .map(ChainTransaction::inMsg)
        .filter(m -> m != null && wallet.equals(m.source()))
        .findFirst().orElseThrow();
    assertThat(received.destination()).isEqualTo(user);
    assertThat(received.value()).isEqualTo(TON / 4);
    assertThat(received.comment()).isEqualTo("payout #1 ✓ thanks");
    assertThat(received.hash()).as("the out-message and the recipient's in-message are one message")
        .isEqualTo(ours.outMsgs().get(0).hash());

    WalletInfo after = client.getWalletInformation(wallet).join();
    assertThat(after.isActive()).isTrue();
    assertThat(after.wallet()).isTrue();
    assertThat(after.walletType()).isEqualTo("wallet v4 r2");
    assertThat(after.walletId()).isEqualTo(SUBWALLET);
    assertThat(after.seqno()).isEqualTo(1L);
    assertThat(after.lastTransaction()).isEqualTo(ours.id());
    assertThat(after.balance()).isLessThan(10 * TON - TON / 4);
    assertThat(client.getAddressInformation(wallet).join().state()).isEqualTo("active");
  }

  @Test
  void shouldCarryALongSnakeCommentIntact() {
    String comment = "withdrawal 0f3a-77 to the user's wallet; ".repeat(8);

    SentMessage sent = sendAndConfirm(pay(user, TON / 10, comment));

    ChainTransaction tx = findByInMessageHash(wallet, sent.hash()).orElseThrow();
    assertThat(tx.outMsgs().get(0).comment()).isEqualTo(comment);
  }

  @Test
  void shouldPageTransactionsByLtAndHashNewestFirst() {
    List<SentMessage> sent = new ArrayList<>();
    for (int i = 0; i < 4; i++) {
      sent.add(sendAndConfirm(pay(user, TON / 100, "page " + i)));
    }

    List<ChainTransaction> all = client.getTransactions(wallet, 100, null, null).join();
    assertThat(all).as("4 transfers and devnet's funding transfer").hasSize(5);
    assertThat(all).extracting(tx -> tx.id().lt()).isSortedAccordingTo((a, b) -> Long.compare(b, a));
    assertThat(all.subList(0, 4)).extracting(tx -> tx.inMsg().hash())
        .as("newest first").containsExactly(sent.get(3).hash(), sent.get(2).hash(), sent.get(1).hash(), sent.get(0).hash());

    List<ChainTransaction> page1 = client.getTransactions(wallet, 2, null, null).join();
    TransactionId cursor = page1.get(page1.size() - 1).id();
    List<ChainTransaction> page2 = client.getTransactions(wallet, 2, cursor, null).join();
    TransactionId cursor2 = page2.get(page2.size() - 1).id();
    List<ChainTransaction> page3 = client.getTransactions(wallet, 100, cursor2, null).join();

    assertThat(page2.get(0).id()).as("lt+hash start is inclusive").isEqualTo(cursor);
    List<TransactionId> walked = new ArrayList<>();
    page1.forEach(tx -> walked.add(tx.id()));
    page2.stream().skip(1).forEach(tx -> walked.add(tx.id()));
    page3.stream().skip(1).forEach(tx -> walked.add(tx.id()));
    assertThat(walked).containsExactlyElementsOf(all.stream().map(ChainTransaction::id).toList());

    long oldestLt = all.get(all.size() - 1).id().lt();
    assertThat(client.getTransactions(wallet, 100, null, oldestLt).join())
        .as("to_lt is exclusive").extracting(ChainTransaction::id)
        .containsExactlyElementsOf(all.subList(0, all.size() - 1).stream().map(ChainTransaction::id).toList());
  }

  @Test
  void shouldSeeTheMasterchainAdvance() {
    MasterchainInfo first = client.getMasterchainInfo().join();

    await().atMost(DEADLINE).until(() -> client.getMasterchainInfo().join().seqno() > first.seqno() + 2);

    MasterchainInfo later = client.getMasterchainInfo().join();
    assertThat(later.workchain()).isEqualTo(-1);
    assertThat(later.rootHash()).matches("[0-9a-f]{64}").isNotEqualTo(first.rootHash());
    assertThat(later.fileHash()).matches("[0-9a-f]{64}");
  }

  @Test
  void shouldKeepManyWalletsInFlightAtOnce() {
    List<Long> ids = LongStream.range(1, 9).boxed().toList();
    ids.forEach(id -> devnet.fund(subwallets.address(id), TON));
    Instant until = Instant.now().plusSeconds(60);

    List<CompletableFuture<SentMessage>> sends = ids.stream()
        .map(id -> client.getSeqno(subwallets.address(id))
            .thenCompose(seqno -> client.sendBocReturnHash(
                signer.sign(id, seqno, until, List.of(pay(user, TON / 50, "batch " + id))).boc())))
        .toList();
    CompletableFuture.allOf(sends.toArray(CompletableFuture[]::new)).join();

    await().atMost(DEADLINE).until(() -> ids.stream()
        .allMatch(id -> client.getSeqno(subwallets.address(id)).join() == 1));
    for (int i = 0; i < ids.size(); i++) {
      String hash = sends.get(i).join().hash();
      assertThat(findByInMessageHash(subwallets.address(ids.get(i)), hash)).isPresent();
    }
  }

  // ---------------------------------------------------------------- rejections

  @Test
  void shouldRejectAWrongSeqnoWithExitCode33() {
    sendAndConfirm(pay(user, TON / 10, "first"));

    Throwable ahead = failureOf(client.sendBocReturnHash(sign(5, pay(user, TON / 10, "from the future")).boc()));
    assertThat(ahead).asInstanceOf(type(MessageRejectedException.class)).satisfies(e -> {
      assertThat(e.exitCode()).isEqualTo(33);
      assertThat(e.isSeqnoMismatch()).isTrue();
      assertThat(e.httpStatus()).isEqualTo(500);
      assertThat(e.maybeDelivered()).isFalse();
    });

    SignedTransfer replay = sign(0, pay(user, TON / 10, "first"));
    assertThat(failureOf(client.sendBocReturnHash(replay.boc())))
        .as("a message whose seqno was used is rejected too, though its transfer happened")
        .asInstanceOf(type(MessageRejectedException.class))
        .satisfies(e -> assertThat(e.isSeqnoMismatch()).isTrue());
    assertThat(client.getSeqno(wallet).join()).isEqualTo(1L);
  }

  @Test
  void shouldRejectAnExpiredMessageWithExitCode36() {
    SignedTransfer expired = signer.sign(SUBWALLET, 0, Instant.now().minusSeconds(5), List.of(pay(user, TON, "late")));

    assertThat(failureOf(client.sendBocReturnHash(expired.boc())))
        .asInstanceOf(type(MessageRejectedException.class))
        .satisfies(e -> {
          assertThat(e.exitCode()).isEqualTo(36);
          assertThat(e.isExpired()).isTrue();
        });
  }

  // ---------------------------------------------------------------- faults

  @Test
  void shouldReportRateLimitFaultsAsRateLimited() {
    devnet.faults().rateLimitNext(1);
    assertThat(client.getSeqno(wallet).join()).as("a read retries past one 429").isZero();

    devnet.faults().rateLimitNext(10);
    assertThat(failureOf(client.getMasterchainInfo())).as("after maxReadAttempts").isInstanceOf(RateLimitedException.class);

    devnet.faults().clear().rateLimitNext(1);
    Throwable send = failureOf(client.sendBocReturnHash(sign(0, pay(user, TON, "limited")).boc()));
    assertThat(send).asInstanceOf(type(RateLimitedException.class))
        .satisfies(e -> assertThat(e.maybeDelivered()).as("a 429 processed nothing").isFalse());
    devnet.faults().clear();
    assertThat(client.getSeqno(wallet).join()).as("the limited send did not apply").isZero();
  }

  @Test
  void shouldReportACutConnectionAfterSendingAsMaybeDeliveredAndTheMessageStillApplies() {
    devnet.faults().transportErrorNext(1, Faults.TransportError.CLOSE);
    SignedTransfer signed = sign(0, pay(user, TON / 5, "cut"));

    Throwable failure = failureOf(client.sendBocReturnHash(signed.boc()));

    assertThat(failure).asInstanceOf(type(TransportException.class))
        .satisfies(e -> assertThat(e.maybeDelivered()).isTrue());
    awaitSeqno(1);
    assertThat(findByInMessageHash(wallet, signed.messageHash())).as("still watching the hash finds it").isPresent();
  }

  @Test
  void shouldReportALiteserverTimeoutOnSendAsMaybeDelivered() {
    devnet.faults().transportErrorNext(1, Faults.TransportError.HTTP_504);
    SignedTransfer signed = sign(0, pay(user, TON / 5, "504"));

    assertThat(failureOf(client.sendBocReturnHash(signed.boc())))
        .asInstanceOf(type(ApiErrorException.class))
        .satisfies(e -> {
          assertThat(e.httpStatus()).isEqualTo(504);
          assertThat(e.maybeDelivered()).isTrue();
        });
    awaitSeqno(1);
    assertThat(client.sendBocReturnHash(signed.boc()).handle((ok, e) -> e).join())
        .as("re-sending the same BOC is harmless: rejected, nothing applies twice")
        .isNotNull();
    assertThat(client.getTransactions(wallet, 100, null, null).join())
        .filteredOn(tx -> tx.inMsg() != null && signed.messageHash().equals(tx.inMsg().hash()))
        .hasSize(1);
  }
}
