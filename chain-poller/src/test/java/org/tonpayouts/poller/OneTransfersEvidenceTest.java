package org.tonpayouts.poller;

import static org.assertj.core.api.Assertions.assertThat;
import static org.tonpayouts.poller.PollerDriver.SETTINGS;
import static org.tonpayouts.poller.PollerDriver.SKEW;
import static org.tonpayouts.poller.PollerDriver.TTL;
import static org.tonpayouts.poller.Wallets.ALICE;
import static org.tonpayouts.poller.Wallets.BOB;
import static org.tonpayouts.poller.Wallets.TON;
import static org.tonpayouts.poller.Wallets.send;
import static org.tonpayouts.poller.Wallets.submission;
import static org.tonpayouts.poller.Wallets.transactionOf;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.tonpayouts.devnet.chain.DevnetTransaction;
import org.tonpayouts.schemas.Confirmation;
import org.tonpayouts.schemas.ConfirmationStatus;
import org.tonpayouts.ton.address.TonAddress;
import org.tonpayouts.ton.wallet.SignedTransfer;

/**
 * A verdict rests on evidence about its own transfer only, on devnet's chain: a transaction that
 * took another seqno never settles a transfer, a bounce is credited to one payout only, and no
 * flood of inbound transfers keeps a transfer from its verdict (issue 28, items 1 to 3).
 */
class OneTransfersEvidenceTest {
  /** Rounds a transfer may take to its verdict in these scenarios; a wedged one never gets it. */
  private static final int ROUNDS = 8;

  @TempDir
  Path stateDir;

  private PollerDriver poller;

  @BeforeEach
  void setUp() {
    poller = new PollerDriver(stateDir);
  }

  @AfterEach
  void tearDown() {
    poller.close();
  }

  /** Rounds until a verdict is published (at most {@link #ROUNDS}); the verdicts, in order. */
  private List<Confirmation> roundsUntilAVerdict() {
    List<Confirmation> verdicts = new ArrayList<>();
    for (int i = 0; i < ROUNDS && verdicts.isEmpty(); i++) {
      poller.round();
      verdicts.addAll(poller.confirmations.readValuesToList());
    }
    return verdicts;
  }

  /** {@code count} inbound transfers of one nanoton each to {@code wallet}: anyone can send them. */
  private void dust(TonAddress wallet, int count) {
    for (int i = 0; i < count; i++) {
      poller.devnet.fund(wallet, 1);
    }
  }

  @Test
  void shouldNeverRecoverATransferWithAnEarlierTransfersPaymentOfTheSameAmountToTheSamePayee() {
    // verdicts are forgotten after 5 s: the earlier transfer's transaction is no longer claimed by a remembered one
    poller.restart(new PollerSettings(SETTINGS.interval(), SKEW, SETTINGS.roundTimeout(), SETTINGS.fallbackRounds(),
        Duration.ofSeconds(5), SETTINGS.pageSize(), SETTINGS.maxPages(), SETTINGS.bounceWindow(), Duration.ZERO,
        SETTINGS.feedClockMargin()));
    long sub = 2001;
    TonAddress wallet = poller.wallets.address(sub);
    poller.deploy(sub);
    SignedTransfer c = poller.sign(sub, 1, BOB, TON);
    send(poller.api, c);
    poller.watch(submission(c, "req-c", poller.clock.instant()));
    poller.round();
    Confirmation settledC = poller.confirmations.readValue();
    assertThat(settledC.status()).isEqualTo(ConfirmationStatus.CONFIRMED);

    poller.clock.advance(Duration.ofSeconds(6));
    SignedTransfer d = poller.sign(sub, 2, BOB, TON); // never reaches the chain (dropped)
    poller.watch(submission(d, "req-d", poller.clock.instant()));
    poller.devnet.foreignTransfer(wallet, ALICE, 3 * TON, null); // someone else takes seqno 2, paying another
    poller.round();
    poller.clock.advance(TTL.plus(SKEW));

    List<Confirmation> verdicts = roundsUntilAVerdict();

    // C's transaction (seqno 1) pays BOB 1 TON within D's window, but it is C's: D's seqno 2 paid ALICE
    assertThat(verdicts).singleElement().satisfies(v -> {
      assertThat(v.requestId()).isEqualTo("req-d");
      assertThat(v.status()).isEqualTo(ConfirmationStatus.RECONCILIATION_REQUIRED);
      assertThat(v.txHash()).isNull();
      assertThat(v.messageHash()).isEqualTo(d.messageHash());
    });
    assertThat(verdicts.get(0).reason()).contains("seqno 2");
  }

  @Test
  void shouldCreditEachOfTwoDelayedBouncesFromOnePayeeToItsOwnPayout() {
    poller.restart(SETTINGS.withFeedRetention(Duration.ofMinutes(1)));
    poller.deploy(2100); // starts the block feed; its own transfer predates it, so it is scanned
    poller.clock.advance(SKEW.plusSeconds(2)); // transfers from now on are recorded after the feed started
    poller.devnet.delayBounces(3); // a bounce crosses shards: it comes after the wallet's next payout
    long sub = 2101;
    TonAddress nobody = PollerDriver.nobody(0x5e);
    poller.devnet.fund(poller.wallets.address(sub), 10 * TON);
    List<SignedTransfer> payouts = new ArrayList<>();
    List<Confirmation> verdicts = new ArrayList<>();
    for (int seqno = 0; seqno < 2; seqno++) {
      SignedTransfer t = poller.signBounceable(sub, seqno, nobody, 2 * TON, "refund 77");
      send(poller.api, t);
      poller.watch(submission(t, "req-bounce-" + seqno, poller.clock.instant()));
      poller.round();
      payouts.add(t);
    }
    for (int i = 0; i < 6; i++) {
      poller.round();
    }
    verdicts.addAll(poller.confirmations.readValuesToList());

    List<DevnetTransaction> bouncesOnChain = poller.devnet.transactions(poller.wallets.address(sub)).stream()
        .filter(tx -> tx.inMsg().bounced()).toList();
    assertThat(bouncesOnChain).as("both payouts bounced, each after the next payout").hasSize(2);
    List<Confirmation> bounced = verdicts.stream().filter(v -> v.status() == ConfirmationStatus.BOUNCED).toList();
    assertThat(bounced).extracting(Confirmation::requestId).containsExactly("req-bounce-0", "req-bounce-1");
    assertThat(bounced).extracting(Confirmation::txHash).as("two different bounces, each on its own payout")
        .containsExactly(bouncesOnChain.get(0).hash(), bouncesOnChain.get(1).hash());
    assertThat(bounced).extracting(Confirmation::messageHash)
        .containsExactly(payouts.get(0).messageHash(), payouts.get(1).messageHash());
  }

  @Test
  void shouldConfirmATransferBehind600InboundTransfersThatArrivedWhileThePollerWasDown() {
    long sub = 2200;
    TonAddress wallet = poller.wallets.address(sub);
    poller.devnet.fund(wallet, 5 * TON);
    SignedTransfer k = poller.sign(sub, 0, BOB, TON);
    send(poller.api, k);
    poller.devnet.produceBlock(); // k applies while the poller does not run
    dust(wallet, 600);

    poller.watch(submission(k, "req-k", poller.clock.instant().minusSeconds(1)));
    List<Confirmation> verdicts = roundsUntilAVerdict();

    DevnetTransaction paid = transactionOf(poller.devnet, wallet, k.messageHash()).orElseThrow();
    assertThat(verdicts).singleElement().satisfies(v -> {
      assertThat(v.requestId()).isEqualTo("req-k");
      assertThat(v.status()).isEqualTo(ConfirmationStatus.CONFIRMED);
      assertThat(v.txHash()).isEqualTo(paid.hash());
    });
  }

  @Test
  void shouldKeepConcludingWhileAThousandInboundTransfersAMinuteArrive() {
    long sub = 2201;
    TonAddress wallet = poller.wallets.address(sub);
    poller.deploy(sub);
    // one round a block of 400 ms: 1,000 a minute is about 7 inbound transfers a round
    for (int seqno = 1; seqno <= 3; seqno++) {
      SignedTransfer t = poller.sign(sub, seqno, BOB, TON);
      send(poller.api, t);
      poller.watch(submission(t, "req-paid-" + seqno, poller.clock.instant()));
      dust(wallet, 7);
      List<Confirmation> verdicts = roundsUntilAVerdict();
      assertThat(verdicts).singleElement().satisfies(v -> assertThat(v.status()).isEqualTo(ConfirmationStatus.CONFIRMED));
    }

    // a transfer whose seqno someone else takes, its message lost, with 600 inbound transfers since:
    // concluding it needs a complete view of its window, which the scan builds round by round
    SignedTransfer lost = poller.sign(sub, 4, BOB, TON);
    poller.watch(submission(lost, "req-lost", poller.clock.instant()));
    poller.devnet.foreignTransfer(wallet, ALICE, TON, null);
    poller.devnet.produceBlock();
    dust(wallet, 600);
    poller.clock.advance(TTL.plus(SKEW));
    List<Confirmation> verdicts = new ArrayList<>();
    for (int i = 0; i < ROUNDS && verdicts.isEmpty(); i++) {
      dust(wallet, 7);
      poller.round();
      verdicts.addAll(poller.confirmations.readValuesToList());
    }

    assertThat(verdicts).singleElement().satisfies(v -> {
      assertThat(v.requestId()).isEqualTo("req-lost");
      assertThat(v.status()).isEqualTo(ConfirmationStatus.RECONCILIATION_REQUIRED);
    });
  }
}
