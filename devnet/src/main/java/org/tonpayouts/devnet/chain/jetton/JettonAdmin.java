package org.tonpayouts.devnet.chain.jetton;

import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.atomic.AtomicLong;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.tonpayouts.devnet.chain.AccountView;
import org.tonpayouts.devnet.chain.Chain;
import org.tonpayouts.devnet.chain.ContractState;
import org.tonpayouts.devnet.chain.DevnetTransaction;
import org.tonpayouts.devnet.chain.Sha256;
import org.tonpayouts.ton.address.TonAddress;
import org.tonpayouts.ton.cell.MessageCells;
import org.tonpayouts.ton.cell.TonCell;

/**
 * devnet's jetton admin, for tests and the local stack: deploys a jetton (reference or
 * stablecoin), mints to any owner (deploying its jetton wallet) and locks or unlocks stablecoin
 * wallets, with the very messages a real admin sends the real minter, delivered at once
 * ({@link Chain#sendInternal}) so that their effect is readable when a call returns.
 *
 * <p>The admin is {@link #ADMIN}, an address devnet speaks for (no key controls it, like the
 * faucet): the minters name it as their admin, so no one else can mint. A jetton's master address
 * follows from its flavor and URI (the minter's StateInit); deploying the same again changes
 * nothing. The golden traces (tools/jetton-traces) send the same messages to the real contracts.
 */
public final class JettonAdmin {
  private static final Logger log = LoggerFactory.getLogger(JettonAdmin.class);

  /** The admin of every jetton devnet deploys. */
  public static final TonAddress ADMIN = TonAddress.of(TonAddress.BASECHAIN, Sha256.of("devnet jetton admin"));
  /** TON the deploy message carries: the minter's balance (the stablecoin keeps 1 TON when it mints). */
  public static final long DEPLOY_VALUE = 1_500_000_000L;
  /** TON a mint message carries, and what the minter passes on to the jetton wallet. */
  public static final long MINT_VALUE = 100_000_000L;
  public static final long MINT_TON_AMOUNT = 50_000_000L;
  /** TON a set_status (call_to) message carries, and what the minter passes on. */
  public static final long STATUS_VALUE = 100_000_000L;
  public static final long STATUS_TON_AMOUNT = 50_000_000L;
  /** The longest URI a one-cell content holds (the reference's content spends a byte on its 0x01 tag). */
  private static final int MAX_URI_BYTES = 126;

  private final Chain chain;
  private final AtomicLong queryIds = new AtomicLong();

  public JettonAdmin(Chain chain) {
    this.chain = Objects.requireNonNull(chain, "chain");
  }

  /** What a deploy did: the master's address and the transaction(s). */
  public record Deployed(JettonFlavor flavor, TonAddress master, List<DevnetTransaction> transactions) {}

  /**
   * What a mint or a status change did: the transactions, in order, and the wallet as it is after
   * them. {@code ok} is false when any of them threw or failed (the minter refused, the wallet bounced).
   */
  public record Result(JettonWalletView wallet, boolean ok, List<DevnetTransaction> transactions) {}

  /** The address of the minter {@link #deploy} creates for {@code flavor} and {@code uri}. */
  public static TonAddress masterAddress(JettonFlavor flavor, String uri) {
    return TonAddress.of(TonAddress.BASECHAIN, minterStateInit(flavor, uri).hash());
  }

  /** Deploys a minter of {@code flavor} whose content names {@code uri}, with {@link #ADMIN} as its admin. */
  public Deployed deploy(JettonFlavor flavor, String uri) {
    TonCell init = minterStateInit(flavor, uri);
    TonAddress master = TonAddress.of(TonAddress.BASECHAIN, init.hash());
    TonCell body = flavor == JettonFlavor.STABLECOIN ? JettonOps.topUp(0) : TonCell.EMPTY;
    List<DevnetTransaction> txs = chain.sendInternal(ADMIN, master, DEPLOY_VALUE, false, body, init);
    log.info("jetton deployed flavor={} master={} uri={}", flavor.id(), master, uri);
    return new Deployed(flavor, master, txs);
  }

  /** {@link #mint(TonAddress, TonAddress, BigInteger, long)} with the next query id. */
  public Result mint(TonAddress master, TonAddress owner, BigInteger amount) {
    return mint(master, owner, amount, queryIds.incrementAndGet());
  }

  /** Mints {@code amount} jetton units to {@code owner}, deploying its jetton wallet if needed. */
  public Result mint(TonAddress master, TonAddress owner, BigInteger amount, long queryId) {
    Objects.requireNonNull(owner, "owner");
    if (amount.signum() <= 0) {
      throw new IllegalArgumentException("amount must be positive, got " + amount);
    }
    JettonFlavor flavor = flavorOf(master);
    TonCell body = JettonOps.mint(flavor, queryId, owner, MINT_TON_AMOUNT,
        JettonOps.mintedTransfer(queryId, amount, ADMIN));
    List<DevnetTransaction> txs = chain.sendInternal(ADMIN, master, MINT_VALUE, true, body, null);
    Result result = result(master, owner, txs);
    log.info("jettons minted master={} owner={} amount={} ok={} balance={}", master, owner, amount, result.ok(),
        result.wallet().balance());
    return result;
  }

  /**
   * Sets the status of {@code owner}'s stablecoin wallet through the minter ({@code call_to} a
   * {@code set_status}): 0 unlocked, 1 sending locked, 2 receiving locked, 3 both.
   */
  public Result setStatus(TonAddress master, TonAddress owner, int status, long queryId) {
    if (status < 0 || status > 15) {
      throw new IllegalArgumentException("status is 4 bits (0..15), got " + status);
    }
    if (flavorOf(master) != JettonFlavor.STABLECOIN) {
      throw new IllegalArgumentException("only stablecoin jetton wallets have a status; " + master + " is a reference jetton");
    }
    TonCell body = JettonOps.callToSetStatus(queryId, owner, STATUS_TON_AMOUNT, status);
    List<DevnetTransaction> txs = chain.sendInternal(ADMIN, master, STATUS_VALUE, true, body, null);
    Result result = result(master, owner, txs);
    log.info("jetton wallet status set master={} owner={} status={} ok={}", master, owner, status, result.ok());
    return result;
  }

  /** {@link #setStatus(TonAddress, TonAddress, int, long)} with the next query id. */
  public Result setStatus(TonAddress master, TonAddress owner, int status) {
    return setStatus(master, owner, status, queryIds.incrementAndGet());
  }

  /** The flavor of the jetton {@code master} is the minter of; {@link IllegalArgumentException} when it is none devnet runs. */
  public JettonFlavor flavorOf(TonAddress master) {
    ContractState minter = chain.account(Objects.requireNonNull(master, "master")).contract();
    if (minter instanceof ReferenceJettonMinter) {
      return JettonFlavor.REFERENCE;
    }
    if (minter instanceof StablecoinJettonMinter) {
      return JettonFlavor.STABLECOIN;
    }
    throw new IllegalArgumentException(master + " is not a jetton minter devnet deployed");
  }

  /** {@code owner}'s jetton wallet of {@code master} as of the last block. */
  public JettonWalletView wallet(TonAddress master, TonAddress owner) {
    JettonFlavor flavor = flavorOf(master);
    TonAddress address = flavor.walletAddress(owner, master);
    AccountView view = chain.account(address);
    ContractState state = view.contract();
    if (state instanceof ReferenceJettonWallet w) {
      return new JettonWalletView(address, owner, master, flavor, true, w.balance(), 0, view.balance());
    }
    if (state instanceof StablecoinJettonWallet w) {
      return new JettonWalletView(address, owner, master, flavor, true, w.balance(), w.status(), view.balance());
    }
    return new JettonWalletView(address, owner, master, flavor, false, BigInteger.ZERO, 0, view.balance());
  }

  private Result result(TonAddress master, TonAddress owner, List<DevnetTransaction> txs) {
    boolean ok = !txs.isEmpty() && txs.stream().noneMatch(tx -> tx.aborted() || tx.inMsg().bounced());
    return new Result(wallet(master, owner), ok, txs);
  }

  /** The minter's StateInit: its code, and its data with supply 0, {@link #ADMIN} and the content for {@code uri}. */
  static TonCell minterStateInit(JettonFlavor flavor, String uri) {
    byte[] bytes = Objects.requireNonNull(uri, "uri").getBytes(StandardCharsets.UTF_8);
    if (bytes.length == 0 || bytes.length > MAX_URI_BYTES) {
      throw new IllegalArgumentException("the jetton URI must be 1 to " + MAX_URI_BYTES + " bytes, got " + bytes.length);
    }
    ContractState minter = flavor == JettonFlavor.REFERENCE
        // TEP-64 off-chain content: 0x01, then the URI
        ? ReferenceJettonMinter.initial(ADMIN, TonCell.builder().storeUint(1, 8).storeBytes(bytes).endCell())
        // the stablecoin keeps the bare URI (metadata_uri) and builds its on-chain content from it
        : StablecoinJettonMinter.initial(ADMIN, TonCell.builder().storeBytes(bytes).endCell());
    return MessageCells.stateInit(minter.code(), minter.data());
  }
}
