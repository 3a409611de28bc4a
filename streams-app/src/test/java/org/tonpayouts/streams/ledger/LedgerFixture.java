package org.tonpayouts.streams.ledger;

import com.zaxxer.hikari.HikariDataSource;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.BeforeEachCallback;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.tonpayouts.devnet.ManualClock;
import org.tonpayouts.embedded.EmbeddedPostgresServer;
import org.tonpayouts.embedded.SharedTestInfrastructure;
import org.tonpayouts.schemas.PayoutRequest;
import org.tonpayouts.schemas.TransferKind;
import org.tonpayouts.schemas.TransferRequest;
import org.tonpayouts.streams.ledger.record.Intent;

/**
 * A fresh ledger database per test class, with request, intent and SQL helpers for the ledger
 * tests. Registered as an extension ({@code @RegisterExtension static final LedgerFixture db}), it
 * empties the ledger's tables before each test and closes the pool after the class.
 */
final class LedgerFixture implements BeforeEachCallback, AfterAllCallback {
  static final Instant START = Instant.parse("2026-01-01T12:00:00Z");
  static final Duration TTL = Duration.ofSeconds(60);
  static final long SUBWALLET = 698983191L;
  static final int MAX_ATTEMPTS = 3;
  /** The clock-skew margin the ledger's expiries need past valid_until. */
  static final Duration EXPIRY_MARGIN = Ledger.DEFAULT_EXPIRY_MARGIN;
  static final String WALLET = rawAddress("wallet-A");
  static final String OTHER_WALLET = rawAddress("wallet-B");
  static final String DESTINATION = rawAddress("destination");

  final HikariDataSource dataSource;
  final ManualClock clock = ManualClock.fixedAt(START);
  final Ledger ledger;

  LedgerFixture(Class<?> testClass) {
    EmbeddedPostgresServer postgres = SharedTestInfrastructure.postgres();
    SharedTestInfrastructure.createDatabase(testClass);
    String name = SharedTestInfrastructure.databaseName(testClass);
    dataSource = Ledger.pooledDataSource(postgres.jdbcUrl(name), postgres.user(), postgres.password(), 4);
    Ledger.migrate(dataSource);
    ledger = new Ledger(dataSource, clock, MAX_ATTEMPTS, EXPIRY_MARGIN);
  }

  void empty() throws SQLException {
    EmptyLedger.empty(dataSource);
  }

  void close() {
    dataSource.close();
  }

  @Override
  public void beforeEach(ExtensionContext context) throws SQLException {
    empty();
  }

  @Override
  public void afterAll(ExtensionContext context) {
    close();
  }

  /** A request of {@code transfers} transfers of 1.5 TON each to {@link #DESTINATION}, ids t-0, t-1... */
  static PayoutRequest request(String requestId, int transfers) {
    return request(requestId, SUBWALLET, transfers, 1_500_000_000L);
  }

  static PayoutRequest request(String requestId, long subwalletId, int transfers, long amount) {
    List<TransferRequest> list = new ArrayList<>();
    for (int i = 0; i < transfers; i++) {
      list.add(new TransferRequest("t-" + i, TransferKind.PAYOUT, DESTINATION, amount, "deal " + requestId, null));
    }
    return PayoutRequest.of(requestId, subwalletId, list, START.minusSeconds(5));
  }

  /** Attempt {@code attempt} of the request's first transfer, from {@code wallet} at {@code seqno}. */
  Intent intent(PayoutRequest request, int index, int attempt, String wallet, long seqno, String seed) {
    return new Intent(request, "payout.requests-0@" + request.requestId().hashCode(), index, attempt, wallet, seqno,
        hash(seed), hash("normalized-" + seed), "te6cckEBAQEA" + seed, clock.instant().plus(TTL));
  }

  Intent intent(String requestId, int attempt, long seqno, String seed) {
    return intent(request(requestId, 1), 0, attempt, WALLET, seqno, seed);
  }

  /** The earliest node time that proves {@code intent}'s message expired: valid_until plus the margin. */
  static long provenExpiry(Intent intent) {
    return intent.validUntil().getEpochSecond() + EXPIRY_MARGIN.toSeconds();
  }

  static String hash(String seed) {
    try {
      byte[] digest = MessageDigest.getInstance("SHA-256").digest(seed.getBytes(StandardCharsets.UTF_8));
      return HexFormat.of().formatHex(digest);
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException(e);
    }
  }

  static String rawAddress(String seed) {
    return "0:" + hash(seed);
  }

  void execute(String sql) throws SQLException {
    try (Connection c = dataSource.getConnection(); Statement s = c.createStatement()) {
      s.execute(sql);
    }
  }

  long queryLong(String sql) throws SQLException {
    try (Connection c = dataSource.getConnection(); Statement s = c.createStatement();
        ResultSet rs = s.executeQuery(sql)) {
      rs.next();
      return rs.getLong(1);
    }
  }
}
