package org.tonpayouts.devnet;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.tonpayouts.devnet.chain.Chain;
import org.tonpayouts.devnet.chain.DevnetTransaction;
import org.tonpayouts.ton.address.TonAddress;
import org.tonpayouts.ton.api.BlockId;
import org.tonpayouts.ton.api.BlockNotReadyException;
import org.tonpayouts.ton.api.BlockTransactions;
import org.tonpayouts.ton.api.ChainTransaction;
import org.tonpayouts.ton.api.TonApiClient;
import org.tonpayouts.ton.api.TonApiConfig;
import org.tonpayouts.ton.api.TransactionId;
import org.tonpayouts.ton.wallet.TransferOrder;

/**
 * A block follower's reads against devnet over real HTTP with the project's client: masterchain
 * info, then {@code shards} of every masterchain block, then every shard seqno up to the listed
 * top, then {@code getBlockTransactionsExt} page by page. What it reads must be exactly the
 * chain's transactions, each equal to what {@code getTransactions} gives for its account; a
 * lagging node never shows a block beyond its own view.
 */
class BlockFollowingTest {
  private static final long TON = 1_000_000_000L;
  private static final Duration BLOCK_TIME = Duration.ofSeconds(1);
  /** Small pages, so most blocks take several. */
  private static final int PAGE = 2;

  private final ManualClock clock = ManualClock.fixedAt(Instant.parse("2026-04-01T08:00:00Z"));
  private final List<TestWallet> wallets = List.of(
      new TestWallet(31, 698983191L), new TestWallet(32, 698983191L), new TestWallet(33, 7L), new TestWallet(34, 8L));
  private final List<TonAddress> users = List.of(TestWallet.someAddress(71), TestWallet.someAddress(72));
  /** A plain account of the masterchain: its transactions live in masterchain blocks. */
  private final TonAddress masterchainUser = TonAddress.of(TonAddress.MASTERCHAIN, TestWallet.someAddress(73).hash());
  /** Nobody: a bounceable transfer to it comes back. */
  private final TonAddress nobody = TestWallet.someAddress(74);
  private final Map<TestWallet, Long> seqnos = new HashMap<>();

  private Devnet devnet;
  private TonApiClient client;

  @BeforeEach
  void start() {
    devnet = Devnet.builder().blockInterval(Duration.ZERO).clock(clock).seed(11).start();
    client = client(devnet.apiUrl());
    for (TestWallet w : wallets) {
      devnet.fund(w.address, 5 * TON);
      seqnos.put(w, 0L);
    }
    for (TonAddress user : users) {
      devnet.fund(user, TON, true);
    }
    devnet.fund(masterchainUser, TON, true);
  }

  @AfterEach
  void stop() {
    client.close();
    devnet.close();
  }

  private static TonApiClient client(java.net.URI api) {
    return new TonApiClient(TonApiConfig.of(api)
        .withRequestsPerSecond(1000)
        .withCallTimeout(Duration.ofSeconds(5))
        .withMaxReadAttempts(3)
        .withRetryBackoff(Duration.ofMillis(5)));
  }

  private void send(TestWallet w, TransferOrder... orders) {
    long seqno = seqnos.get(w);
    client.sendBocReturnHash(w.sign(seqno, clock.instant().plusSeconds(600), orders).boc()).join();
    seqnos.put(w, seqno + 1);
  }

  private static TransferOrder pay(TonAddress to, String comment, boolean bounce) {
    return new TransferOrder(to, TON / 20, comment, bounce);
  }

  private void block() {
    clock.advance(BLOCK_TIME);
    devnet.produceBlock();
  }

  /** Five blocks: deploys, several wallets in one block, a bounce, the masterchain, an empty block. */
  private long makeBlocks() {
    send(wallets.get(0), pay(users.get(0), "first", false));
    send(wallets.get(1), pay(users.get(1), null, false), pay(masterchainUser, "to the masterchain", false));
    block();
    devnet.fund(users.get(0), TON / 2, true); // devnet's funding joins the last block, after it was made
    for (TestWallet w : wallets) {
      send(w, pay(users.get(0), "round 2", false), pay(users.get(1), "round 2 again", false));
    }
    block();
    send(wallets.get(2), pay(nobody, "comes back", true));
    block();
    block();
    send(wallets.get(3), pay(masterchainUser, null, false));
    send(wallets.get(0), pay(users.get(1), "last", false));
    block();
    return devnet.masterchainSeqno();
  }

  /** Everything a follower reads, and how many requests each block's pages took. */
  private record Followed(List<ChainTransaction> masterchain, List<ChainTransaction> basechain,
                          Map<BlockId, Integer> pagesPerBlock, Map<BlockId, List<ChainTransaction>> byBlock) {}

  /** Follows masterchain blocks 1 to {@code last}: each masterchain block, and every basechain seqno up to its top. */
  private Followed follow(TonApiClient api, long last) {
    Followed f = new Followed(new ArrayList<>(), new ArrayList<>(), new HashMap<>(), new HashMap<>());
    long shardSeqno = -1;
    for (long mc = 1; mc <= last; mc++) {
      List<BlockId> tops = api.getShards(mc).join();
      assertThat(tops).as("devnet's basechain has one shard").singleElement().satisfies(top -> {
        assertThat(top.workchain()).isZero();
        assertThat(top.shard()).isEqualTo(BlockId.WHOLE_WORKCHAIN);
        assertThat(top.hasHashes()).isTrue();
      });
      BlockId top = tops.get(0);
      assertThat(top.seqno()).as("a shard seqno is not a masterchain seqno").isNotEqualTo(mc);
      long from = shardSeqno < 0 ? top.seqno() : shardSeqno + 1;
      for (long s = from; s <= top.seqno(); s++) {
        BlockId id = s == top.seqno() ? top : BlockId.bySeqno(0, top.shard(), s);
        f.basechain().addAll(readAll(api, id, f));
      }
      shardSeqno = top.seqno();
      f.masterchain().addAll(readAll(api, BlockId.bySeqno(-1, BlockId.WHOLE_WORKCHAIN, mc), f));
    }
    return f;
  }

  private List<ChainTransaction> readAll(TonApiClient api, BlockId id, Followed f) {
    List<ChainTransaction> all = new ArrayList<>();
    BlockTransactions.After after = null;
    int pages = 0;
    BlockId named = null;
    while (true) {
      BlockTransactions page = api.getBlockTransactions(id, after, PAGE).join();
      pages++;
      named = page.block();
      assertThat(page.transactions()).hasSizeLessThanOrEqualTo(PAGE);
      assertThat(page.incomplete()).as("incomplete exactly when the page is full").isEqualTo(page.transactions().size() == PAGE);
      all.addAll(page.transactions());
      if (page.next().isEmpty()) {
        break;
      }
      after = page.next().get();
    }
    f.pagesPerBlock().put(named, pages);
    f.byBlock().put(named, all);
    return all;
  }

  private static String key(ChainTransaction tx) {
    return tx.account().toRaw() + "/" + tx.id().lt() + "/" + tx.id().hash();
  }

  private static String key(DevnetTransaction tx) {
    return tx.account().toRaw() + "/" + tx.lt() + "/" + tx.hash();
  }

  private List<TonAddress> accounts() {
    List<TonAddress> all = new ArrayList<>(wallets.stream().map(w -> w.address).toList());
    all.addAll(users);
    all.add(masterchainUser);
    all.add(nobody);
    return all;
  }

  @Test
  void shouldReadEveryTransactionOfEveryBlockExactlyOnceAndAsGetTransactionsGivesIt() {
    long last = makeBlocks();
    assertThat(client.getMasterchainInfo().join().seqno()).isEqualTo(last);

    Followed f = follow(client, last);

    Set<String> onChain = new LinkedHashSet<>();
    for (TonAddress account : accounts()) {
      devnet.transactions(account).stream().filter(tx -> tx.blockSeqno() >= 1).forEach(tx -> onChain.add(key(tx)));
    }
    List<ChainTransaction> read = new ArrayList<>(f.basechain());
    read.addAll(f.masterchain());
    assertThat(read).extracting(BlockFollowingTest::key).doesNotHaveDuplicates()
        .containsExactlyInAnyOrderElementsOf(onChain);
    assertThat(f.masterchain()).isNotEmpty().allMatch(tx -> tx.account().workchain() == TonAddress.MASTERCHAIN);
    assertThat(f.basechain()).allMatch(tx -> tx.account().workchain() == TonAddress.BASECHAIN);
    assertThat(f.basechain()).as("the bounce and the late funding are in the blocks too")
        .anyMatch(tx -> tx.account().equals(nobody))
        .anyMatch(tx -> tx.inMsg() != null && tx.inMsg().isBounce());

    for (ChainTransaction tx : read) {
      List<ChainTransaction> history = client.getTransactions(tx.account(), 100, null, null).join();
      assertThat(history).filteredOn(h -> h.id().equals(tx.id()))
          .as("%s as getTransactions gives it", key(tx))
          .containsExactly(tx);
    }
    f.byBlock().forEach((block, txs) -> assertThat(txs)
        .as("block %s in the node's order: account id, then lt", block)
        .isSortedAccordingTo(Comparator.<ChainTransaction, byte[]>comparing(tx -> tx.account().hash(),
            Arrays::compareUnsigned).thenComparingLong(tx -> tx.id().lt())));
    f.byBlock().forEach((block, txs) -> assertThat(f.pagesPerBlock().get(block))
        .as("block %s with %d transactions: a full page is always followed by one more request", block, txs.size())
        .isEqualTo(txs.size() / PAGE + 1));
    assertThat(f.pagesPerBlock().values()).as("paging was exercised").anyMatch(pages -> pages > 2);
  }

  @Test
  void shouldNameTheBasechainBlockEveryMasterchainBlockReferencesWithItsOwnSeqno() {
    long last = makeBlocks();

    for (long mc = 1; mc <= last; mc++) {
      BlockId top = client.getShards(mc).join().get(0);
      assertThat(top.seqno()).isEqualTo(mc + Chain.SHARD_SEQNO_OFFSET);
      BlockTransactions exact = client.getBlockTransactions(top, null, 100).join();
      BlockTransactions bySeqno = client.getBlockTransactions(top.withoutHashes(), null, 100).join();
      assertThat(exact.block()).isEqualTo(top);
      assertThat(bySeqno).isEqualTo(exact);
    }
    BlockId mcBlock = client.getBlockTransactions(BlockId.bySeqno(-1, BlockId.WHOLE_WORKCHAIN, last), null, 1).join().block();
    var info = client.getMasterchainInfo().join();
    assertThat(mcBlock.rootHash()).as("a masterchain block read is the block getMasterchainInfo names").isEqualTo(info.rootHash());
    assertThat(mcBlock.fileHash()).isEqualTo(info.fileHash());
  }

  @Test
  void shouldKeepALaggingNodesBlocksShardsAndMasterchainInfoAtItsOwnView() {
    long last = makeBlocks();
    DevnetNode behind = devnet.node("behind");
    behind.faults().lag(2);
    try (TonApiClient lagging = client(behind.apiUrl())) {
      long view = lagging.getMasterchainInfo().join().seqno();
      assertThat(view).isEqualTo(last - 2);

      assertThat(lagging.getShards(view).join()).isEqualTo(client.getShards(view).join());
      BlockId seen = client.getShards(view).join().get(0);
      assertThat(lagging.getBlockTransactions(seen, null, 100).join())
          .isEqualTo(client.getBlockTransactions(seen, null, 100).join());

      BlockId newest = client.getShards(last).join().get(0);
      assertThat(failureOf(lagging.getShards(view + 1)))
          .isInstanceOf(BlockNotReadyException.class)
          .hasMessageContaining("last known masterchain block: " + view);
      assertThat(failureOf(lagging.getBlockTransactions(newest.withoutHashes(), null, 10)))
          .isInstanceOf(BlockNotReadyException.class)
          .hasMessageContaining("possibly out of sync");
      assertThat(failureOf(lagging.getBlockTransactions(newest, null, 10)))
          .as("named by its hashes too").isInstanceOf(BlockNotReadyException.class);
      assertThat(failureOf(lagging.getBlockTransactions(BlockId.bySeqno(-1, BlockId.WHOLE_WORKCHAIN, last), null, 10)))
          .isInstanceOf(BlockNotReadyException.class);

      Followed upToView = follow(lagging, view);
      assertThat(upToView.basechain()).extracting(tx -> tx.id())
          .as("the lagging node's blocks are the same blocks, only fewer")
          .containsExactlyElementsOf(follow(client, view).basechain().stream().map(ChainTransaction::id).toList());

      behind.faults().lag(0);
      assertThat(lagging.getShards(last).join()).containsExactly(newest);
    }
  }

  @Test
  void shouldGiveTheNodesErrorForABlockNotMadeYet() {
    long last = makeBlocks();
    BlockId top = client.getShards(last).join().get(0);

    assertThat(failureOf(client.getShards(last + 1)))
        .isInstanceOf(BlockNotReadyException.class)
        .hasMessageContaining("cannot find block (-1,8000000000000000) seqno=" + (last + 1))
        .hasMessageContaining("(last known masterchain block: " + last + ")");
    assertThat(failureOf(client.getBlockTransactions(BlockId.bySeqno(0, top.shard(), top.seqno() + 1), null, 5)))
        .isInstanceOf(BlockNotReadyException.class);
    block();
    assertThat(client.getBlockTransactions(BlockId.bySeqno(0, top.shard(), top.seqno() + 1), null, 5).join()
        .transactions()).as("the next block, once made, reads like any other").isEmpty();
  }

  @Test
  void shouldApplyTheNodesLatencyAndRateLimitToBlockReads() {
    long last = makeBlocks();
    devnet.faults().rateLimitNext(2).latency(Duration.ofMillis(30));

    List<BlockId> tops = client.getShards(last).join();
    BlockTransactions page = client.getBlockTransactions(tops.get(0), null, 100).join();

    assertThat(page.transactions()).isNotEmpty();
    assertThat(devnet.faults().counts().rateLimited()).as("both 429s were answered, and retried by the client").isEqualTo(2);
    assertThat(devnet.faults().counts().delayed()).isGreaterThanOrEqualTo(4);
  }

  private static Throwable failureOf(CompletableFuture<?> future) {
    assertThatThrownBy(future::join).isInstanceOf(CompletionException.class);
    return future.handle((v, e) -> e instanceof CompletionException ? e.getCause() : e).join();
  }
}
