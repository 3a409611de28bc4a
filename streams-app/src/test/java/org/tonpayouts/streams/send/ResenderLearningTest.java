package org.tonpayouts.streams.send;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import javax.sql.DataSource;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.tonpayouts.devnet.Devnet;
import org.tonpayouts.devnet.ManualClock;
import org.tonpayouts.embedded.SharedTestInfrastructure;
import org.tonpayouts.streams.PayoutTestKit;
import org.tonpayouts.streams.ledger.Ledger;
import org.tonpayouts.streams.ledger.sql.LedgerRow;
import org.tonpayouts.streams.ledger.sql.LedgerStatus;
import org.tonpayouts.streams.metrics.PayoutMetrics;
import org.tonpayouts.ton.address.TonAddress;
import org.tonpayouts.ton.api.TonApiClient;
import org.tonpayouts.ton.api.TonApiConfig;
import org.tonpayouts.ton.wallet.SignedTransfer;
import org.tonpayouts.ton.wallet.Subwallets;
import org.tonpayouts.ton.wallet.TransferOrder;
import org.tonpayouts.ton.wallet.TransferSigner;

/**
 * What the re-send delay learns from, on devnet's real wallet code: the verdict time of a message
 * whose first send applied, even when its verdict came after a re-send the wallet refused; never
 * the verdict of a message that was lost and applied only when re-sent (Karn's rule).
 */
class ResenderLearningTest {
  private static final Duration MIN = Duration.ofMillis(100);
  private static final Duration DEADLINE = Duration.ofSeconds(20);
  private static final Subwallets SUBWALLETS = new Subwallets(PayoutTestKit.KEY, 0);

  private static Devnet devnet;
  private static TonApiClient api;
  private static DataSource database;
  private static Ledger ledger;
  private PayoutMetrics metrics;
  private SendLog sendLog;
  private Resender resender;

  @BeforeAll
  static void chain() throws Exception {
    devnet = Devnet.builder().blockInterval(Duration.ofMillis(50)).clock(ManualClock.systemPlusOffset()).start();
    api = new TonApiClient(TonApiConfig.of(devnet.baseUrl()).withRequestsPerSecond(10_000));
    database = SharedTestInfrastructure.createDatabase(ResenderLearningTest.class);
    Ledger.migrate(database);
    ledger = new Ledger(database, Clock.systemUTC(), 3);
  }

  @AfterAll
  static void stop() throws Exception {
    api.close();
    devnet.close();
  }

  @BeforeEach
  void resender() {
    metrics = PayoutMetrics.inMemory();
    // a short hold: a re-send that gets no verdict reaches the ledger on its own, as the second test awaits
    sendLog = new SendLog(ledger, Clock.systemUTC(), Duration.ofMillis(50));
    resender = new Resender(api, sendLog, Clock.systemUTC(), new Resender.Settings(MIN, Duration.ofSeconds(1)), metrics);
  }

  @AfterEach
  void stopResender() {
    resender.close();
    sendLog.close();
  }

  @Test
  void learnsTheVerdictTimeOfAMessageWhoseReSendTheWalletRefused() throws Exception {
    LedgerRow message = firstMessage(PayoutTestKit.FIRST_SUBWALLET + 40);
    api.sendBocReturnHash(message.boc()).get();
    TonAddress wallet = TonAddress.parse(message.walletAddress());
    await("applied").atMost(DEADLINE).until(() -> devnet.seqno(wallet) == 1);
    resender.watch(message, true);

    // the first send applied; its verdict is late, so the re-send goes out and the wallet refuses it
    await("re-send refused").atMost(DEADLINE).until(() -> metrics.count("ton.tx.resent") >= 1 && resender.watching() == 0);
    resender.forget(List.of(message.messageHash())); // the verdict comes at last

    assertThat(resender.firstResendAfter()).as("waits past that verdict time next time")
        .isGreaterThan(MIN.multipliedBy(5).dividedBy(4).minusMillis(1));
  }

  @Test
  void learnsNothingFromAMessageThatAppliedOnlyWhenSentAgain() throws Exception {
    LedgerRow message = firstMessage(PayoutTestKit.FIRST_SUBWALLET + 41);
    devnet.faults().dropNext(1);
    api.sendBocReturnHash(message.boc()).get(); // answered ok, never applied
    resender.watch(message, true);

    TonAddress wallet = TonAddress.parse(message.walletAddress());
    await("applied once re-sent").atMost(DEADLINE).until(() -> devnet.seqno(wallet) == 1);
    await("re-send recorded").atMost(DEADLINE).until(() -> sendCount(message) == 2);
    resender.forget(List.of(message.messageHash()));

    assertThat(resender.watching()).isZero();
    assertThat(resender.firstResendAfter()).as("its wait was the delay itself plus a block: not a verdict time")
        .isEqualTo(MIN);
  }

  /** How many sends of the message the ledger recorded. */
  private static int sendCount(LedgerRow message) throws Exception {
    try (Connection c = database.getConnection(); PreparedStatement ps = c.prepareStatement(
        "select send_count from ton_transactions where message_hash = ?")) {
      ps.setString(1, message.messageHash());
      try (ResultSet rs = ps.executeQuery()) {
        return rs.next() ? rs.getInt(1) : -1;
      }
    }
  }

  /** The first message of a freshly funded subwallet, recorded in the ledger as sent once. */
  private static LedgerRow firstMessage(long subwalletId) throws Exception {
    TonAddress wallet = SUBWALLETS.address(subwalletId);
    devnet.fund(wallet, 10 * PayoutTestKit.TON);
    TonAddress to = SUBWALLETS.address(subwalletId + 1000);
    Instant validUntil = Instant.now().plusSeconds(60);
    SignedTransfer signed = new TransferSigner(SUBWALLETS).sign(subwalletId, 0, validUntil,
        List.of(new TransferOrder(to, PayoutTestKit.TON, "resender", false)));
    Instant now = Instant.now();
    String requestId = "r-" + subwalletId;
    try (Connection c = database.getConnection(); Statement st = c.createStatement()) {
      st.execute("insert into payout_requests (request_id, subwallet_id, transfer_count, created_at) values ('"
          + requestId + "', " + subwalletId + ", 1, now())");
      st.execute("insert into payout_transfers (request_id, transfer_id, transfer_index, kind, subwallet_id,"
          + " wallet_address, destination, amount_nano, seqno, attempts, status, created_at, updated_at) values ('"
          + requestId + "', 't', 0, 'PAYOUT', " + subwalletId + ", '" + wallet.toRaw() + "', '" + to.toRaw() + "', "
          + PayoutTestKit.TON + ", 0, 1, 'OPEN', now(), now())");
      st.execute("insert into ton_transactions (request_id, transfer_id, transfer_index, attempt, subwallet_id,"
          + " wallet_address, destination, amount_nano, seqno, message_hash, boc, valid_until, status, send_count,"
          + " created_at, updated_at) values ('" + requestId + "', 't', 0, 1, " + subwalletId + ", '" + wallet.toRaw()
          + "', '" + to.toRaw() + "', " + PayoutTestKit.TON + ", 0, '" + signed.messageHash() + "', '" + signed.boc()
          + "', now() + interval '60 seconds', 'SENT', 1, now(), now())");
    }
    return new LedgerRow(1, "r-" + subwalletId, "t", 0, 1, subwalletId, wallet.toRaw(), to.toRaw(), PayoutTestKit.TON,
        0, signed.messageHash(), signed.normalizedHash(), signed.boc(), Instant.ofEpochSecond(signed.validUntil()),
        LedgerStatus.SENT, null, null, null, null, null, 0, 1, now, now, now, null, null);
  }
}
