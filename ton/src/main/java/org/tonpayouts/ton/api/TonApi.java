package org.tonpayouts.ton.api;

import java.util.List;
import java.util.concurrent.CompletableFuture;
import org.tonpayouts.ton.address.TonAddress;

/**
 * What the payout pipeline asks of the TON HTTP API v2 (toncenter or devnet). Every call is
 * asynchronous so many wallets' reads and sends can be in flight at once; failures arrive as
 * {@link TonApiException} subtypes inside the future. The futures complete on shared threads (the
 * common {@code ForkJoinPool} for {@link TonApiClient}): dependent actions must not block (use the
 * {@code ...Async} forms with an executor of your own for JDBC or other waits).
 */
public interface TonApi {

  /** The wallet's balance, state and seqno ({@code getWalletInformation}). */
  CompletableFuture<WalletInfo> getWalletInformation(TonAddress address);

  /**
   * The wallet's current seqno, read fresh: 0 for an uninitialized wallet (its first message
   * deploys it with seqno 0). Fails with {@link UnexpectedResponseException} for a frozen account.
   */
  CompletableFuture<Long> getSeqno(TonAddress address);

  /**
   * The wallet's seqno, balance and last transaction with the node's {@code sync_utime}, all from
   * one {@code getAddressInformation} answer (see {@link WalletSnapshot}). Fails with {@link
   * UnexpectedResponseException} for a frozen account or one whose data is not a wallet's.
   */
  CompletableFuture<WalletSnapshot> getWalletSnapshot(TonAddress address);

  /** The account's raw state ({@code getAddressInformation}). */
  CompletableFuture<AddressInfo> getAddressInformation(TonAddress address);

  /**
   * Sends a signed external message ({@code sendBocReturnHash}). Never retried by the client: on
   * a {@link TonApiException} with {@link TonApiException#maybeDelivered()} the outcome is unknown,
   * keep watching the message hash; re-sending the same BOC is safe.
   *
   * @param bocBase64 the full external message as a base64 BOC
   */
  CompletableFuture<SentMessage> sendBocReturnHash(String bocBase64);

  /**
   * Transactions of an account, newest first ({@code getTransactions}).
   *
   * @param limit 1 to 100
   * @param from  start here, inclusive (this transaction is the first of the answer); null for
   *              the newest. Page with the oldest transaction of the previous page and drop the
   *              first element of the answer.
   * @param toLt  stop before this logical time: only transactions with {@code lt > toLt}; null for no bound
   */
  CompletableFuture<List<ChainTransaction>> getTransactions(
      TonAddress address, int limit, TransactionId from, Long toLt);

  /**
   * The network's global id, configuration parameter 19 ({@code getConfigParam?config_id=19}):
   * -239 on mainnet, -3 on testnet, devnet's own on devnet ({@code TonNetwork}). Fails with
   * {@link UnexpectedResponseException} when the answer holds no such parameter.
   */
  CompletableFuture<Integer> getGlobalId();

  /** The last masterchain block ({@code getMasterchainInfo}). */
  CompletableFuture<MasterchainInfo> getMasterchainInfo();

  /**
   * The newest block of every shard as of masterchain block {@code masterchainSeqno}
   * ({@code shards}). Several shard blocks can be made between two masterchain blocks and only
   * each shard's newest one is listed: a follower reads the shard's seqnos from the last one it
   * saw + 1 up to the listed one. Fails with {@link BlockNotReadyException} for a masterchain
   * block the node does not have yet.
   */
  CompletableFuture<List<BlockId>> getShards(long masterchainSeqno);

  /**
   * One page of {@code block}'s transactions, full ({@code getBlockTransactionsExt}); see
   * {@link BlockTransactions} for their order and for paging. The block is read by its hashes
   * when {@code block} has them, else looked up by seqno. Fails with {@link BlockNotReadyException}
   * for a block the node does not have yet.
   *
   * @param after null for the first page, else the previous page's {@link BlockTransactions#next()}
   * @param count 1 to {@link BlockTransactions#MAX_COUNT}
   */
  CompletableFuture<BlockTransactions> getBlockTransactions(BlockId block, BlockTransactions.After after, int count);

  /**
   * The jetton wallet of {@code owner} for the jetton whose master is {@code master}: the master's
   * TEP-74 get-method {@code get_wallet_address(owner)}. The address exists whether or not the
   * wallet is deployed yet.
   */
  CompletableFuture<TonAddress> getJettonWalletAddress(TonAddress master, TonAddress owner);

  /**
   * A jetton wallet's balance, owner and master (TEP-74 {@code get_wallet_data}); empty while the
   * wallet is not deployed (it has never received jettons: its balance is zero).
   */
  CompletableFuture<java.util.Optional<JettonWalletData>> getJettonWalletData(TonAddress jettonWallet);
}
