package org.tonpayouts.streams;

import static org.awaitility.Awaitility.await;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicReference;
import org.tonpayouts.runtime.PayoutsConfig;
import org.tonpayouts.schemas.Confirmation;
import org.tonpayouts.schemas.ConfirmationStatus;
import org.tonpayouts.schemas.Json;
import org.tonpayouts.schemas.PayoutRequest;
import org.tonpayouts.schemas.Submission;
import org.tonpayouts.schemas.TransferKind;
import org.tonpayouts.schemas.TransferRequest;
import org.tonpayouts.ton.address.TonAddress;
import org.tonpayouts.ton.api.ChainTransaction;
import org.tonpayouts.ton.api.TonApi;
import org.tonpayouts.ton.api.WalletSnapshot;
import org.tonpayouts.ton.keys.WalletKey;

/** Requests, keys and chain look-ups shared by the streams-app tests. */
public final class PayoutTestKit {
  /** An arbitrary test-only seed; never a real wallet's. */
  public static final WalletKey KEY =
      WalletKey.fromSeedHex("5f1b2c3d4e5f60718293a4b5c6d7e8f90a1b2c3d4e5f60718293a4b5c6d7e8f9");
  public static final long FIRST_SUBWALLET = 698983191L;
  public static final long TON = 1_000_000_000L;

  private PayoutTestKit() {}

  /** The verdict keys of the tests' chain poller and streams-app (verdict.mac.keys); a test-only key. */
  public static final String VERDICT_KEYS = "test:" + "5e".repeat(32);

  /** valid_until TTL and skew margin of the tests: short, so expiries are quick to reach. */
  public static final Duration TTL = Duration.ofSeconds(10);
  public static final Duration SKEW = Duration.ofSeconds(1);

  public static PayoutsConfig config(Map<String, Object> overrides) {
    Map<String, Object> values = new HashMap<>();
    values.put(PayoutsConfig.TRANSFER_SEQNO_TIMEOUT_MS_CONFIG, 5_000L);
    values.put(PayoutsConfig.TRANSFER_TTL_SECONDS_CONFIG, (int) TTL.toSeconds());
    values.put(PayoutsConfig.TRANSFER_CLOCK_SKEW_SECONDS_CONFIG, (int) SKEW.toSeconds());
    values.put(PayoutsConfig.TRANSFER_FEE_RESERVE_NANO_CONFIG, 0L);
    values.put(PayoutsConfig.VERDICT_MAC_KEYS_CONFIG, VERDICT_KEYS);
    values.putAll(overrides);
    return new PayoutsConfig(values);
  }

  /** A destination account: a fixed, distinct address per index. */
  public static TonAddress recipient(int index) {
    byte[] hash = new byte[32];
    hash[0] = (byte) 0x5a;
    hash[31] = (byte) index;
    hash[30] = (byte) (index >> 8);
    return TonAddress.of(0, hash);
  }

  public static TransferRequest transfer(String id, TonAddress to, long nano) {
    return new TransferRequest(id, TransferKind.PAYOUT, to.toFriendly(false, false), nano, "payout " + id, null);
  }

  public static PayoutRequest request(String requestId, long subwalletId, TransferRequest... transfers) {
    return PayoutRequest.of(requestId, subwalletId, List.of(transfers), Instant.parse("2026-11-01T00:00:00Z"));
  }

  public static byte[] json(PayoutRequest request) {
    try {
      return Json.mapper().writeValueAsBytes(request);
    } catch (Exception e) {
      throw new IllegalStateException(e);
    }
  }

  public static byte[] text(String s) {
    return s.getBytes(StandardCharsets.UTF_8);
  }

  /** Waits until a transaction carrying one of the transfer's messages is on chain and returns it. */
  public static ChainTransaction awaitTransaction(TonApi api, Submission submission) {
    AtomicReference<ChainTransaction> found = new AtomicReference<>();
    await("transaction of " + submission.transferHashes()).atMost(Duration.ofSeconds(10))
        .until(() -> {
          found.set(transactionOf(api, submission));
          return found.get() != null;
        });
    return found.get();
  }

  /** The wallet's transaction carrying one of the transfer's messages, or null while there is none. */
  public static ChainTransaction transactionOf(TonApi api, Submission submission) {
    TonAddress wallet = TonAddress.parse(submission.walletAddress());
    for (ChainTransaction tx : api.getTransactions(wallet, 50, null, null).join()) {
      if (tx.inMsg() != null && submission.transferHashes().contains(tx.inMsg().hash())) {
        return tx;
      }
    }
    return null;
  }

  /**
   * What the chain poller publishes for a transfer whose transaction is {@code tx}: CONFIRMED
   * naming the message that applied (any attempt), or FAILED when it sent nothing.
   */
  public static Confirmation verdictOf(Submission submission, ChainTransaction tx) {
    boolean sent = !tx.outMsgs().isEmpty();
    return Confirmation.of(submission.requestId(), submission.transferId(), submission.subwalletId(),
        tx.inMsg().hash(), submission.seqno(), sent ? ConfirmationStatus.CONFIRMED : ConfirmationStatus.FAILED,
        tx.id().hash(), tx.id().lt(), tx.utime(), tx.fee(), sent ? null : "no outgoing message", Instant.now());
  }

  /**
   * The EXPIRED the chain poller publishes once the node proves it: its own time past the newest
   * message's valid_until + margin, the wallet's seqno not past the transfer's. Fails the test when
   * the node does not prove it (yet).
   */
  public static Confirmation expiryOf(TonApi api, Submission submission) {
    WalletSnapshot state = api.getWalletSnapshot(TonAddress.parse(submission.walletAddress())).join();
    if (state.syncUtime() < submission.validUntil() + SKEW.toSeconds() || state.seqno() > submission.seqno()) {
      throw new AssertionError("the node does not prove expiry: node time " + state.syncUtime() + ", valid_until "
          + submission.validUntil() + ", wallet seqno " + state.seqno() + ", transfer seqno " + submission.seqno());
    }
    return expiry(submission, state.syncUtime());
  }

  /** An EXPIRED verdict resting on {@code nodeTime}, whatever the chain says (for lying nodes). */
  public static Confirmation expiry(Submission submission, long nodeTime) {
    return Confirmation.of(submission.requestId(), submission.transferId(), submission.subwalletId(),
        submission.messageHash(), submission.seqno(), ConfirmationStatus.EXPIRED, null, null, null, null,
        "node time " + nodeTime + " passed valid_until " + submission.validUntil(), Instant.now(), nodeTime, null);
  }

  /**
   * Waits, at most {@code timeout}, until {@code idle} says the I/O threads finished what they were
   * handed ({@link org.tonpayouts.streams.wallet.WalletIo#idle}, a batcher's): how tests step a
   * topology whose processors hand work to other threads.
   *
   * @return false when the timeout passed first
   */
  public static boolean awaitIdle(java.util.function.BooleanSupplier idle, Duration timeout) {
    try {
      await("the I/O threads to finish their work").atMost(timeout).pollDelay(Duration.ZERO)
          .pollInterval(Duration.ofMillis(1)).until(idle::getAsBoolean);
      return true;
    } catch (org.awaitility.core.ConditionTimeoutException e) {
      return false;
    }
  }

  public static List<Long> seqnos(List<Submission> submissions) {
    List<Long> out = new ArrayList<>();
    submissions.forEach(s -> out.add(s.seqno()));
    return out;
  }
}
