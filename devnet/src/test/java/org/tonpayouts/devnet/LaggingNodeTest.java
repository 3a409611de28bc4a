package org.tonpayouts.devnet;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.InstanceOfAssertFactories.type;

import com.fasterxml.jackson.databind.JsonNode;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.tonpayouts.devnet.chain.BlockInfo;
import org.tonpayouts.devnet.chain.DevnetTransaction;
import org.tonpayouts.ton.address.TonAddress;
import org.tonpayouts.ton.api.AddressInfo;
import org.tonpayouts.ton.api.ChainTransaction;
import org.tonpayouts.ton.api.MessageRejectedException;
import org.tonpayouts.ton.api.TonApiClient;
import org.tonpayouts.ton.api.TonApiConfig;
import org.tonpayouts.ton.api.TransactionId;
import org.tonpayouts.ton.api.WalletInfo;
import org.tonpayouts.ton.wallet.SignedTransfer;
import org.tonpayouts.ton.wallet.TransferOrder;

/**
 * Several API nodes over one chain, one of them lagging: what a service behind a load-balanced
 * toncenter sees. Over real HTTP with the project's API client; blocks and time are driven by the
 * test (manual blocks, a clock moved by hand, five seconds per block).
 */
class LaggingNodeTest {
  private static final long TON = 1_000_000_000L;
  private static final Duration BLOCK_TIME = Duration.ofSeconds(5);
  private static final int LAG = 2;

  private final ManualClock clock = ManualClock.fixedAt(Instant.parse("2026-03-01T12:00:00Z"));
  private final TestWallet wallet = new TestWallet(21, 698983191L);
  private final TonAddress user = TestWallet.someAddress(60);

  private Devnet devnet;
  private DevnetNode fresh;
  private DevnetNode lagging;
  private TonApiClient freshClient;
  private TonApiClient laggingClient;

  @BeforeEach
  void start() {
    devnet = Devnet.builder().blockInterval(Duration.ZERO).clock(clock).seed(5).start();
    fresh = devnet.node("fresh");
    lagging = devnet.node("lagging");
    freshClient = client(fresh);
    laggingClient = client(lagging);
    devnet.fund(wallet.address, 10 * TON);
    devnet.fund(user, TON, true);
  }

  @AfterEach
  void stop() {
    freshClient.close();
    laggingClient.close();
    devnet.close();
  }

  private static TonApiClient client(DevnetNode node) {
    return new TonApiClient(TonApiConfig.of(node.apiUrl())
        .withRequestsPerSecond(500)
        .withCallTimeout(Duration.ofSeconds(5))
        .withMaxReadAttempts(1));
  }

  private SignedTransfer transfer(long seqno, String comment) {
    return wallet.sign(seqno, clock.instant().plus(Duration.ofHours(1)), new TransferOrder(user, TON / 10, comment, false));
  }

  private BlockInfo block() {
    clock.advance(BLOCK_TIME);
    return devnet.produceBlock();
  }

  /** Sends through the up-to-date node and applies it in the next block. */
  private SignedTransfer applied(long seqno) {
    SignedTransfer sent = transfer(seqno, "transfer " + seqno);
    freshClient.sendBocReturnHash(sent.boc()).join();
    block();
    assertThat(devnet.seqno(wallet.address)).isEqualTo(seqno + 1);
    return sent;
  }

  private static Throwable failureOf(CompletableFuture<?> future) {
    assertThatThrownBy(future::join).isInstanceOf(CompletionException.class);
    return future.handle((v, e) -> e instanceof CompletionException ? e.getCause() : e).join();
  }

  private static boolean hasInMessage(List<ChainTransaction> txs, String hash) {
    return txs.stream().anyMatch(tx -> tx.inMsg() != null && hash.equals(tx.inMsg().hash()));
  }

  @Test
  void shouldServeTheSameChainUnderEachNodesOwnUrl() {
    assertThat(fresh.apiUrl()).isEqualTo(devnet.baseUrl().resolve("/node/fresh/api/v2/"));
    assertThat(devnet.node("fresh")).isSameAs(fresh);
    assertThat(devnet.node("default").apiUrl()).isEqualTo(devnet.apiUrl());
    assertThat(devnet.node("default").faults()).isSameAs(devnet.faults());
    assertThat(lagging.faults()).isNotSameAs(fresh.faults()).isNotSameAs(devnet.faults());
    applied(0);

    assertThat(freshClient.getSeqno(wallet.address).join()).isEqualTo(1);
    assertThat(laggingClient.getSeqno(wallet.address).join()).as("no lag yet: the same chain").isEqualTo(1);
    Http.Response viaRpc = new Http(lagging).rpc(1, "getAddressBalance", Map.of("address", wallet.friendly()));
    assertThat(viaRpc.result().asText()).isEqualTo(Long.toString(devnet.balance(wallet.address)));
    Http.Response unknown = new Http(devnet).send(java.net.http.HttpRequest.newBuilder(
        devnet.baseUrl().resolve("/node/nobody/api/v2/getMasterchainInfo")).GET());
    assertThat(unknown.status()).isEqualTo(404);
    assertThat(unknown.error()).contains("no node 'nobody'");
  }

  @Test
  void shouldAnswerEveryReadOfALaggingNodeFromTheSameOldBlock() {
    applied(0);
    BlockInfo old = devnet.lastBlock();
    long oldBalance = devnet.balance(wallet.address);
    DevnetTransaction oldLast = devnet.transactions(wallet.address).get(1);
    SignedTransfer second = applied(1);
    SignedTransfer third = applied(2);
    BlockInfo now = devnet.lastBlock();
    assertThat(now.seqno()).isEqualTo(old.seqno() + LAG);

    lagging.faults().lag(LAG);

    AddressInfo behind = laggingClient.getAddressInformation(wallet.address).join();
    AddressInfo current = freshClient.getAddressInformation(wallet.address).join();
    assertThat(behind.syncUtime()).isEqualTo(old.utime()).isLessThan(current.syncUtime());
    assertThat(current.syncUtime()).isEqualTo(now.utime());
    assertThat(behind.balance()).isEqualTo(oldBalance).isGreaterThan(current.balance());
    assertThat(behind.lastTransaction()).isEqualTo(new TransactionId(oldLast.lt(), oldLast.hash()));

    WalletInfo walletBehind = laggingClient.getWalletInformation(wallet.address).join();
    assertThat(walletBehind.seqno()).isEqualTo(1L);
    assertThat(freshClient.getWalletInformation(wallet.address).join().seqno()).isEqualTo(3L);
    assertThat(laggingClient.runGetMethod(wallet.address, "seqno").join().number(0)).hasToString("1");
    assertThat(laggingClient.getMasterchainInfo().join().seqno()).isEqualTo(old.seqno());
    assertThat(freshClient.getMasterchainInfo().join().seqno()).isEqualTo(now.seqno());

    List<ChainTransaction> seenBehind = laggingClient.getTransactions(wallet.address, 100, null, null).join();
    assertThat(seenBehind.get(0).id()).isEqualTo(behind.lastTransaction());
    assertThat(hasInMessage(seenBehind, second.messageHash())).isFalse();
    assertThat(hasInMessage(seenBehind, third.messageHash())).isFalse();
    assertThat(hasInMessage(freshClient.getTransactions(wallet.address, 100, null, null).join(), third.messageHash()))
        .isTrue();

    Http laggingHttp = new Http(lagging);
    JsonNode balance = laggingHttp.get("getAddressBalance", Map.of("address", wallet.friendly())).result();
    JsonNode info = laggingHttp.get("getAddressInformation", Map.of("address", wallet.friendly())).result();
    assertThat(balance.asText()).isEqualTo(Long.toString(oldBalance));
    assertThat(info.get("block_id").get("seqno").asLong()).isEqualTo(old.seqno());
    assertThat(lagging.faults().counts().laggedReads()).isEqualTo(7);
    assertThat(fresh.faults().counts().laggedReads()).isZero();
  }

  @Test
  void shouldShowAnAppliedMessageToALaggingNodeOnlyOnceTheLagEnds() {
    applied(0);
    lagging.faults().lag(LAG, Duration.ofSeconds(30));

    SignedTransfer sent = applied(1);
    TransactionId onFresh = freshClient.getTransactions(wallet.address, 10, null, null).join().stream()
        .filter(tx -> sent.messageHash().equals(tx.inMsg().hash())).findFirst().orElseThrow().id();
    assertThat(hasInMessage(laggingClient.getTransactions(wallet.address, 100, null, null).join(), sent.messageHash()))
        .isFalse();
    assertThat(failureOf(laggingClient.getTransactions(wallet.address, 10, onFresh, null)))
        .as("paging from a transaction the lagging node has not seen yet").hasMessageContaining("cannot find");
    clock.advance(Duration.ofSeconds(19));
    assertThat(hasInMessage(laggingClient.getTransactions(wallet.address, 100, null, null).join(), sent.messageHash()))
        .as("24 s into a 30 s lag").isFalse();

    clock.advance(Duration.ofSeconds(6));

    List<ChainTransaction> caughtUp = laggingClient.getTransactions(wallet.address, 100, null, null).join();
    assertThat(caughtUp.get(0).inMsg().hash()).isEqualTo(sent.messageHash());
    assertThat(caughtUp.get(0).id()).as("the same transaction id as the other node saw").isEqualTo(onFresh);
    assertThat(laggingClient.getSeqno(wallet.address).join()).isEqualTo(2);
    assertThat(lagging.faults().settings().lagBlocks()).as("an ended lag is cleared").isZero();
  }

  @Test
  void shouldCheckASendOnALaggingNodeAgainstItsOldState() {
    applied(0);
    applied(1);
    applied(2);
    lagging.faults().lag(LAG);

    Throwable ahead = failureOf(laggingClient.sendBocReturnHash(transfer(3, "current seqno").boc()));
    assertThat(ahead).asInstanceOf(type(MessageRejectedException.class)).satisfies(e -> {
      assertThat(e.exitCode()).isEqualTo(33);
      assertThat(e.getMessage()).contains("wallet expects 1");
    });

    SignedTransfer oldSeqno = transfer(1, "the lagging node's seqno");
    assertThat(laggingClient.sendBocReturnHash(oldSeqno.boc()).join().hash()).isEqualTo(oldSeqno.messageHash());
    assertThat(devnet.stats().pending()).as("accepted into the one mempool").isEqualTo(1);
    block();
    assertThat(devnet.stats().vanished()).as("the block judges it against the real state").isEqualTo(1);
    assertThat(devnet.seqno(wallet.address)).isEqualTo(3);

    block();
    block(); // two empty blocks: the lagging node's view now has seqno 3 too
    SignedTransfer matching = transfer(3, "seqno both nodes agree on");
    assertThat(laggingClient.sendBocReturnHash(matching.boc()).join().hash()).isEqualTo(matching.messageHash());
    block();
    assertThat(devnet.seqno(wallet.address)).isEqualTo(4);
    assertThat(hasInMessage(freshClient.getTransactions(wallet.address, 10, null, null).join(), matching.messageHash()))
        .isTrue();
  }

  @Test
  void shouldJudgeExpiryOnALaggingNodeByItsOldBlocksTime() {
    applied(0);
    block();
    block();
    lagging.faults().lag(LAG);
    long laggingNow = devnet.lastBlock().utime() - LAG * BLOCK_TIME.toSeconds();
    SignedTransfer expiredByNow = wallet.sign(1, Instant.ofEpochSecond(laggingNow + 1),
        new TransferOrder(user, TON / 10, "valid for the lagging node only", false));

    assertThat(failureOf(freshClient.sendBocReturnHash(expiredByNow.boc())))
        .asInstanceOf(type(MessageRejectedException.class))
        .satisfies(e -> assertThat(e.exitCode()).isEqualTo(36));
    assertThat(laggingClient.sendBocReturnHash(expiredByNow.boc()).join().hash()).isEqualTo(expiredByNow.messageHash());
    block();
    assertThat(devnet.seqno(wallet.address)).as("expired when the block judged it").isEqualTo(1);
    assertThat(devnet.stats().vanished()).isEqualTo(1);
  }

  @Test
  void shouldReadAndReplaceEachNodesFaultsThroughTheAdminApi() {
    Http http = new Http(devnet);

    Http.Response replaced = http.postPath("/admin/faults?node=lagging", Map.of("lagBlocks", 3, "lagMs", 60_000));
    Http.Response created = http.postPath("/admin/faults?node=third", Map.of("rateLimitNext", 1));
    Http.Response byDefault = http.admin("faults", null);
    Http.Response readBack = http.send(java.net.http.HttpRequest.newBuilder(
        devnet.baseUrl().resolve("/admin/faults?node=lagging")).GET());
    Http.Response missing = http.send(java.net.http.HttpRequest.newBuilder(
        devnet.baseUrl().resolve("/admin/faults?node=nobody")).GET());
    Http.Response badName = http.postPath("/admin/faults?node=no%20spaces", Map.of());
    Http.Response limited = new Http(devnet.node("third")).get("getMasterchainInfo", Map.of());
    new Http(lagging).get("getMasterchainInfo", Map.of());
    JsonNode state = http.admin("state", null).result();

    assertThat(replaced.status()).isEqualTo(200);
    assertThat(replaced.result().get("node").asText()).isEqualTo("lagging");
    assertThat(lagging.faults().settings().lagBlocks()).isEqualTo(3);
    assertThat(lagging.faults().settings().lagMs()).isEqualTo(60_000);
    assertThat(created.status()).isEqualTo(200);
    assertThat(byDefault.result().get("node").asText()).isEqualTo("default");
    assertThat(byDefault.result().get("settings").get("lagBlocks").asInt()).isZero();
    assertThat(readBack.result().get("settings").get("lagBlocks").asInt()).isEqualTo(3);
    assertThat(missing.status()).isEqualTo(404);
    assertThat(badName.status()).isEqualTo(400);
    assertThat(limited.status()).isEqualTo(429);
    assertThat(state.get("nodes")).extracting(n -> n.get("node").asText())
        .containsExactly("default", "fresh", "lagging", "third");
    JsonNode laggingState = state.get("nodes").get(2);
    assertThat(laggingState.get("api_path").asText()).isEqualTo("/node/lagging/api/v2/");
    assertThat(laggingState.get("settings").get("lagBlocks").asInt()).isEqualTo(3);
    assertThat(laggingState.get("counts").get("laggedReads").asLong()).isEqualTo(1);
    assertThat(state.get("nodes").get(3).get("counts").get("rateLimited").asLong()).isEqualTo(1);
  }
}
