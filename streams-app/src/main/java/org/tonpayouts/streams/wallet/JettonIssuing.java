package org.tonpayouts.streams.wallet;

import java.math.BigInteger;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.tonpayouts.runtime.jettons.JettonCatalog;
import org.tonpayouts.runtime.jettons.JettonSettings;
import org.tonpayouts.schemas.JettonOrder;
import org.tonpayouts.schemas.PayoutRequest;
import org.tonpayouts.schemas.TransferRequest;
import org.tonpayouts.streams.ledger.record.JettonWallets;
import org.tonpayouts.ton.address.TonAddress;
import org.tonpayouts.ton.api.JettonWalletData;
import org.tonpayouts.ton.api.TonApi;
import org.tonpayouts.ton.api.WalletSnapshot;
import org.tonpayouts.ton.jetton.JettonTransfer;
import org.tonpayouts.ton.wallet.TransferOrder;

/**
 * What issuing a jetton transfer adds to a TON one: the subwallet's own jetton wallet for the
 * jetton (resolved once with the master's {@code get_wallet_address}, then kept in the ledger and
 * here), its jetton balance read beside the wallet's, and the order the wallet signs: the TON
 * configured for the jetton, bounceable, to that jetton wallet, carrying the TEP-74 transfer with
 * the transfer's {@code query_id}, the recipient, the subwallet as {@code response_destination}
 * (the unused TON comes back) and the comment as forward payload.
 *
 * <p>Thread-safe: rounds of different wallets may use it at once.
 */
public final class JettonIssuing {
  private static final Logger log = LoggerFactory.getLogger(JettonIssuing.class);

  /** A jetton transfer's jetton wallet, with its balance as read for this round. */
  record JettonRead(TonAddress jettonWallet, BigInteger balance, boolean deployed) {}

  private final TonApi api;
  private final JettonWallets book;
  private final JettonCatalog catalog;
  /** Resolved jetton wallets by subwallet address and master (raw): a ledger read at most once per process. */
  private final Map<String, TonAddress> known = new ConcurrentHashMap<>();

  public JettonIssuing(TonApi api, JettonWallets book, JettonCatalog catalog) {
    this.api = api;
    this.book = book;
    this.catalog = catalog;
  }

  /** The jetton's settings; a transfer past intake always has one (intake refuses other masters). */
  JettonSettings settings(TransferRequest transfer) {
    TonAddress master = TonAddress.parse(transfer.jetton().master());
    return catalog.byMaster(master).orElseThrow(() -> new IllegalStateException("transfer " + transfer.transferId()
        + " pays jetton " + master.toRaw() + ", which is no longer configured (jettons): it waits until it is"));
  }

  /** The jetton wallet already known (this process, then the ledger); empty when it must be asked for. */
  Optional<TonAddress> known(TonAddress wallet, TransferRequest transfer) {
    String key = key(wallet, transfer);
    TonAddress hit = known.get(key);
    if (hit != null) {
      return Optional.of(hit);
    }
    Optional<TonAddress> kept = book.find(wallet.toRaw(), master(transfer).toRaw()).map(TonAddress::parse);
    kept.ifPresent(a -> known.put(key, a));
    return kept;
  }

  /** Asks the master for the jetton wallet (its get-method): the answer is kept by {@link #keep}. */
  CompletableFuture<TonAddress> resolve(TonAddress wallet, TransferRequest transfer) {
    return api.getJettonWalletAddress(master(transfer), wallet);
  }

  /** Keeps a resolved jetton wallet in the ledger (the first one recorded stays) and here. */
  TonAddress keep(TonAddress wallet, TransferRequest transfer, TonAddress jettonWallet) {
    TonAddress kept = TonAddress.parse(book.remember(wallet.toRaw(), master(transfer).toRaw(), jettonWallet.toRaw()));
    known.put(key(wallet, transfer), kept);
    log.info("jetton wallet resolved wallet={} master={} jetton_wallet={}", wallet.toRaw(), master(transfer).toRaw(),
        kept.toRaw());
    return kept;
  }

  /** The jetton wallet's balance (0 while it is not deployed: nothing was ever minted or sent to it). */
  CompletableFuture<JettonRead> read(TonAddress jettonWallet) {
    return api.getJettonWalletData(jettonWallet).thenApply(data -> new JettonRead(jettonWallet,
        data.map(JettonWalletData::balance).orElse(BigInteger.ZERO), data.isPresent()));
  }

  /** Why the wallet cannot pay the jetton transfer (its jettons), or null when it can. */
  String unaffordable(TransferRequest transfer, JettonRead read, WalletSnapshot snapshot) {
    BigInteger amount = transfer.jetton().amount();
    if (read.balance().compareTo(amount) >= 0) {
      return null;
    }
    JettonSettings jetton = settings(transfer);
    return "insufficient jetton balance: jetton wallet " + read.jettonWallet().toRaw()
        + (read.deployed() ? " holds " + jetton.describe(read.balance()) : " is not deployed (it never held "
            + jetton.symbol() + ")") + " (node time " + snapshot.syncUtime() + "), the transfer needs "
        + jetton.describe(amount);
  }

  /** The order the wallet signs for jetton transfer {@code index} of {@code request}. */
  TransferOrder order(PayoutRequest request, int index, TonAddress wallet, TonAddress jettonWallet) {
    TransferRequest transfer = request.transfer(index);
    JettonSettings jetton = settings(transfer);
    JettonTransfer body = new JettonTransfer(request.jettonQueryId(index), transfer.jetton().amount(),
        TonAddress.parseWithFlags(transfer.destination()).address(), wallet, jetton.forwardTonNano(),
        transfer.comment());
    // bounceable: a jetton wallet that throws sends the TON back, with the op and query_id readable
    return TransferOrder.withBody(jettonWallet, transfer.amountNano(), body.toCell(), true);
  }

  /** What the poller follows beyond the wallet's message, for a submission of the transfer. */
  JettonOrder submitted(PayoutRequest request, int index, TonAddress jettonWallet) {
    TransferRequest transfer = request.transfer(index);
    return new JettonOrder(master(transfer).toRaw(), transfer.jetton().amount(), request.jettonQueryId(index),
        jettonWallet.toRaw(), settings(transfer).forwardTonNano());
  }

  private static TonAddress master(TransferRequest transfer) {
    return TonAddress.parse(transfer.jetton().master());
  }

  private static String key(TonAddress wallet, TransferRequest transfer) {
    return wallet.toRaw() + "|" + master(transfer).toRaw();
  }
}
