package org.tonpayouts.streams.ledger;

import com.zaxxer.hikari.HikariDataSource;
import java.time.Clock;
import java.time.Duration;
import javax.sql.DataSource;
import org.tonpayouts.runtime.caps.SpendCaps;
import org.tonpayouts.streams.ledger.audit.AuditLog;
import org.tonpayouts.streams.ledger.caps.SpendCapGate;
import org.tonpayouts.streams.ledger.audit.Outbox;
import org.tonpayouts.streams.ledger.audit.PendingSettlement;
import org.tonpayouts.streams.ledger.operator.AdminQueries;
import org.tonpayouts.streams.ledger.operator.Approvals;
import org.tonpayouts.streams.ledger.operator.Pauses;
import org.tonpayouts.streams.ledger.operator.SpendHolds;
import org.tonpayouts.streams.ledger.operator.Resolutions;
import org.tonpayouts.streams.ledger.record.IntentRecorder;
import org.tonpayouts.streams.ledger.record.JettonWallets;
import org.tonpayouts.streams.ledger.record.LedgerQueries;
import org.tonpayouts.streams.ledger.record.MessageTransitions;
import org.tonpayouts.streams.ledger.record.PartitionOwners;
import org.tonpayouts.streams.ledger.record.TransferBook;
import org.tonpayouts.streams.ledger.record.VerdictRecorder;
import org.tonpayouts.streams.ledger.sql.LedgerPoolSettings;
import org.tonpayouts.streams.ledger.sql.LedgerSchema;
import org.tonpayouts.streams.ledger.sql.LedgerSql;

/**
 * The ledger: PostgreSQL's record of every request, transfer and message streams-app signs, the
 * write-ahead half of the safe-retry rule (DESIGN.md). Its parts, one job each:
 *
 * <ul>
 *   <li>{@link #intents()}: messages recorded before they are sent, each transfer bound to one seqno;
 *   <li>{@link #transitions()}: the chain's verdicts on messages, and with them their transfers;
 *   <li>{@link #verdicts()}: many verdicts in one transaction, aborting what they leave behind;
 *   <li>{@link #transfers()}: transfer outcomes without a message verdict (refused, aborted, bounced);
 *   <li>{@link #queries()}: histories for issuing rounds, look-ups, wallet figures;
 *   <li>{@link #audit()}: the audit log;
 *   <li>{@link #owners()}: fencing epochs, so a zombie task records (and sends) nothing;
 *   <li>{@link #resolutions()}, {@link #admin()}: operators' resolutions and reads (the admin API);
 *   <li>{@link #pauses()}: the pause switch, which the recording of new intents obeys;
 *   <li>{@link #approvals()}: resolutions waiting for a second operator (the two-person rule);
 *   <li>{@link #holds()}: transfers the rolling spend caps hold back ({@code SpendCapGate}), and releases;
 *   <li>{@link #auditOutbox()}, {@link #settlementOutbox()}: what still has to reach Kafka;
 *   <li>{@link LedgerSchema}: migrations and the connection pool.
 * </ul>
 *
 * <p>Thread-safe. Timestamps come from the injected clock, not from the database.
 */
public final class Ledger {
  /** Messages per transfer at most, unless configured otherwise. */
  public static final int DEFAULT_MAX_ATTEMPTS = 5;
  /** The margin past valid_until an expiry's node time must show, unless configured otherwise (transfer.clock.skew.seconds). */
  public static final Duration DEFAULT_EXPIRY_MARGIN = Duration.ofSeconds(10);

  private final IntentRecorder intents;
  private final MessageTransitions transitions;
  private final TransferBook transfers;
  private final LedgerQueries queries;
  private final AuditLog audit;
  private final PartitionOwners owners;
  private final VerdictRecorder verdicts;
  private final Resolutions resolutions;
  private final AdminQueries admin;
  private final Pauses pauses;
  private final Approvals approvals;
  private final SpendHolds holds;
  private final JettonWallets jettonWallets;
  private final Outbox<org.tonpayouts.schemas.AuditRecord> auditOutbox;
  private final Outbox<PendingSettlement> settlementOutbox;

  /**
   * @param maxAttempts messages a transfer may have at most: the ledger refuses to record attempt
   *     {@code maxAttempts + 1}, and fails the transfer when its last one expires
   * @param expiryMargin how far past a message's valid_until the node's time must be before the
   *     ledger takes its expiry: the same clock-skew margin the chain poller waits for
   *     ({@code transfer.clock.skew.seconds}), so a verdict that skipped it is refused
   */
  public Ledger(DataSource dataSource, Clock clock, int maxAttempts, Duration expiryMargin) {
    this(dataSource, clock, maxAttempts, expiryMargin, SpendCaps.NONE);
  }

  /**
   * @param spendCaps the rolling caps every transfer's first message must fit in (checked when it
   *     is recorded); {@link SpendCaps#NONE}: no check, no lock
   */
  public Ledger(DataSource dataSource, Clock clock, int maxAttempts, Duration expiryMargin, SpendCaps spendCaps) {
    if (maxAttempts < 1) {
      throw new IllegalArgumentException("maxAttempts must be at least 1, got " + maxAttempts);
    }
    if (expiryMargin == null || expiryMargin.isNegative()) {
      throw new IllegalArgumentException("expiryMargin must not be negative, got " + expiryMargin);
    }
    LedgerSql sql = new LedgerSql(dataSource, clock);
    this.intents = new IntentRecorder(sql, maxAttempts, new SpendCapGate(spendCaps));
    this.transitions = new MessageTransitions(sql, maxAttempts, expiryMargin);
    this.transfers = new TransferBook(sql);
    this.queries = new LedgerQueries(sql);
    this.audit = new AuditLog(sql);
    this.owners = new PartitionOwners(sql);
    this.verdicts = new VerdictRecorder(sql, transitions, transfers);
    this.resolutions = new Resolutions(sql);
    this.admin = new AdminQueries(sql, audit);
    this.pauses = new Pauses(sql);
    this.approvals = new Approvals(sql);
    this.holds = new SpendHolds(sql);
    this.jettonWallets = new JettonWallets(sql);
    this.auditOutbox = Outbox.audit(sql);
    this.settlementOutbox = Outbox.settlements(sql);
  }

  public Ledger(DataSource dataSource, Clock clock, int maxAttempts) {
    this(dataSource, clock, maxAttempts, DEFAULT_EXPIRY_MARGIN);
  }

  public Ledger(DataSource dataSource, Clock clock) {
    this(dataSource, clock, DEFAULT_MAX_ATTEMPTS);
  }

  /** {@link LedgerSchema#migrate}. */
  public static int migrate(DataSource dataSource) {
    return LedgerSchema.migrate(dataSource);
  }

  /** {@link LedgerSchema#pendingMigrations}. */
  public static java.util.List<String> pendingMigrations(DataSource dataSource) {
    return LedgerSchema.pendingMigrations(dataSource);
  }

  /** {@link LedgerSchema#grantServiceRights}. */
  public static void grantServiceRights(DataSource dataSource, String role) {
    LedgerSchema.grantServiceRights(dataSource, role);
  }

  /** {@link LedgerSchema#pooledDataSource(String, String, String, int)}: the default timeouts. */
  public static HikariDataSource pooledDataSource(String jdbcUrl, String user, String password, int maxPoolSize) {
    return LedgerSchema.pooledDataSource(jdbcUrl, user, password, maxPoolSize);
  }

  /** {@link LedgerSchema#pooledDataSource(String, String, String, LedgerPoolSettings)}. */
  public static HikariDataSource pooledDataSource(String jdbcUrl, String user, String password,
      LedgerPoolSettings settings) {
    return LedgerSchema.pooledDataSource(jdbcUrl, user, password, settings);
  }

  public IntentRecorder intents() {
    return intents;
  }

  public MessageTransitions transitions() {
    return transitions;
  }

  public TransferBook transfers() {
    return transfers;
  }

  public LedgerQueries queries() {
    return queries;
  }

  public AuditLog audit() {
    return audit;
  }

  /** Operators' pauses of signing, for the deployment or one subwallet. */
  public Pauses pauses() {
    return pauses;
  }

  /** Resolutions waiting for a second operator's approval. */
  public Approvals approvals() {
    return approvals;
  }

  /** Transfers the rolling spend caps hold back, and operators' releases of them. */
  public SpendHolds holds() {
    return holds;
  }

  /** The subwallets' jetton wallets, resolved once and kept. */
  public JettonWallets jettonWallets() {
    return jettonWallets;
  }

  /** Many chain verdicts in one transaction (the wallet-tx processor's path). */
  public VerdictRecorder verdicts() {
    return verdicts;
  }

  /** Fencing epochs of the stream tasks' partitions. */
  public PartitionOwners owners() {
    return owners;
  }

  public Resolutions resolutions() { return resolutions; }

  public AdminQueries admin() { return admin; }

  public Outbox<org.tonpayouts.schemas.AuditRecord> auditOutbox() { return auditOutbox; }

  public Outbox<PendingSettlement> settlementOutbox() { return settlementOutbox; }
}
