package org.tonpayouts.local.soak;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletionException;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.tonpayouts.devnet.Devnet;
import org.tonpayouts.ton.address.TonAddress;
import org.tonpayouts.ton.api.TonApi;
import org.tonpayouts.ton.keys.WalletKey;
import org.tonpayouts.ton.wallet.SignedTransfer;
import org.tonpayouts.ton.wallet.Subwallets;
import org.tonpayouts.ton.wallet.TransferOrder;
import org.tonpayouts.ton.wallet.TransferSigner;

/**
 * Someone else holding the wallets' key: pays from one of our wallets with its current seqno, as
 * another deployment, a leaked key or an operator's manual send would. Only the soak driver has
 * the key for this; the services never see these payments coming.
 *
 * <p>Two ways, both real: {@link #sign} signs a WalletV4R2 message with the key and the seqno devnet
 * shows now and sends it through the API like any wallet app (it races our message for that
 * seqno in the mempool, and whichever arrived first applies); {@link #frontRun} has devnet apply
 * a transfer of the wallet at the start of the next block, ahead of anything waiting (a message
 * that reached the validators first), so a message of ours in flight with that seqno never applies.
 *
 * <p>It pays {@link #DESTINATION} unless told to pay someone else (a payee of ours: see {@link
 * PayeeFrontRunner}); either way every payment carries a comment of its own ("foreign N") and is
 * recorded as an {@link Attempt}, which is how the auditor tells its payments from ours.
 */
final class ForeignSigner {
  private static final Logger log = LoggerFactory.getLogger(ForeignSigner.class);
  /** Where foreign payments go unless told otherwise: an address nobody else in the run pays. */
  static final TonAddress DESTINATION = TonAddress.of(TonAddress.BASECHAIN, sha256("payouts soak: foreign signer"));
  private static final Duration TTL = Duration.ofSeconds(60);
  private static final Duration SEND_TIMEOUT = Duration.ofSeconds(15);

  /**
   * One foreign payment attempt: on chain it is the payment of {@code wallet} to {@code destination}
   * of {@code amountNano} with {@code comment}, nothing else.
   *
   * @param messageHash the signed message's hash; null for a front-run transfer (devnet builds that one)
   * @param outcome "sent", "queued", or why the API refused it
   */
  record Attempt(long subwalletId, TonAddress wallet, TonAddress destination, long amountNano, String comment,
                 boolean frontRun, String messageHash, String outcome) {}

  private final TransferSigner signer;
  private final Devnet devnet;
  private final TonApi api;
  private final Clock clock;
  private final List<Attempt> attempts = new CopyOnWriteArrayList<>();
  private final AtomicInteger numbered = new AtomicInteger();

  ForeignSigner(WalletKey key, Devnet devnet, TonApi api, Clock clock) {
    this.signer = new TransferSigner(new Subwallets(key, 0));
    this.devnet = devnet;
    this.api = api;
    this.clock = clock;
  }

  /** Signs a payment to {@link #DESTINATION} with the wallet's current seqno and sends it through the API. */
  Attempt sign(long subwalletId, long amountNano) {
    return sign(subwalletId, DESTINATION, amountNano);
  }

  /** Signs a payment to {@code destination} with the wallet's current seqno and sends it through the API. */
  Attempt sign(long subwalletId, TonAddress destination, long amountNano) {
    TonAddress wallet = signer.subwallets().address(subwalletId);
    String comment = nextComment();
    long seqno = devnet.seqno(wallet);
    SignedTransfer message = signer.sign(subwalletId, seqno, clock.instant().plus(TTL),
        List.of(new TransferOrder(destination, amountNano, comment, false)));
    String outcome;
    try {
      api.sendBocReturnHash(message.boc()).get(SEND_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS);
      outcome = "sent";
    } catch (java.util.concurrent.ExecutionException | CompletionException e) {
      outcome = "refused: " + (e.getCause() != null ? e.getCause().getMessage() : e.getMessage());
    } catch (TimeoutException e) {
      outcome = "no answer within " + SEND_TIMEOUT.toSeconds() + " s";
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      outcome = "interrupted";
    }
    return record(new Attempt(subwalletId, wallet, destination, amountNano, comment, false, message.messageHash(),
        outcome));
  }

  /** {@link #frontRun(long, TonAddress, long)} to {@link #DESTINATION}. */
  Attempt frontRun(long subwalletId, long amountNano) {
    return frontRun(subwalletId, DESTINATION, amountNano);
  }

  /**
   * Has devnet apply a payment to {@code destination} from the wallet at the start of the next
   * block, ahead of every message waiting; a wallet not deployed yet cannot be front-run, so it
   * gets {@link #sign} instead.
   */
  Attempt frontRun(long subwalletId, TonAddress destination, long amountNano) {
    TonAddress wallet = signer.subwallets().address(subwalletId);
    if (!devnet.account(wallet).isWallet()) {
      return sign(subwalletId, destination, amountNano);
    }
    String comment = nextComment();
    String outcome = "queued";
    try {
      devnet.foreignTransfer(wallet, destination, amountNano, comment);
    } catch (IllegalStateException e) {
      outcome = "refused: " + e.getMessage();
    }
    return record(new Attempt(subwalletId, wallet, destination, amountNano, comment, true, null, outcome));
  }

  /** Unique in the run (two threads pay: the chaos plan's and the payee front-runner's). */
  private String nextComment() {
    return "foreign " + numbered.incrementAndGet();
  }

  private Attempt record(Attempt a) {
    attempts.add(a);
    log.info("foreign payment subwallet={} wallet={} destination={} amount={} comment='{}' front_run={} hash={}"
        + " outcome={}", a.subwalletId(), a.wallet(), a.destination(), a.amountNano(), a.comment(), a.frontRun(),
        a.messageHash(), a.outcome());
    return a;
  }

  List<Attempt> attempts() {
    return List.copyOf(attempts);
  }

  private static byte[] sha256(String s) {
    try {
      return MessageDigest.getInstance("SHA-256").digest(s.getBytes(StandardCharsets.UTF_8));
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("no SHA-256 in this JVM", e);
    }
  }
}
