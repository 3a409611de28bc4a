package org.tonpayouts.streams.ledger;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.tonpayouts.streams.ledger.LedgerFixture.WALLET;
import static org.tonpayouts.streams.ledger.LedgerFixture.hash;
import static org.tonpayouts.streams.ledger.LedgerFixture.request;

import com.zaxxer.hikari.HikariDataSource;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import javax.sql.DataSource;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.tonpayouts.embedded.EmbeddedPostgresServer;
import org.tonpayouts.embedded.SharedTestInfrastructure;
import org.tonpayouts.schemas.AuditRecord;
import org.tonpayouts.streams.ledger.audit.AuditEvent;
import org.tonpayouts.streams.ledger.operator.PauseChange;
import org.tonpayouts.streams.ledger.record.Intent;
import org.tonpayouts.streams.ledger.record.RecordResult;
import org.tonpayouts.streams.ledger.record.VerdictResult;

/**
 * The database roles of docs/production.md on a real PostgreSQL: the schema's owner migrates and
 * grants the service's user its rights ({@code service-grants.sql}); the service's user, a plain
 * login without CREATE, finds the schema current, records intents, verdicts, audit events, outbox
 * marks and pauses, and is refused DDL and any DELETE, TRUNCATE or rewrite of the audit log.
 */
class LedgerRolesTest {
  private static final String OWNER = "ledger_roles_owner";
  private static final String SERVICE = "ledger_roles_service";
  private static HikariDataSource owner;
  private static HikariDataSource service;

  @BeforeAll
  static void roles() throws SQLException {
    EmbeddedPostgresServer postgres = SharedTestInfrastructure.postgres();
    String name = SharedTestInfrastructure.databaseName(LedgerRolesTest.class);
    SharedTestInfrastructure.createDatabase(name);
    try (Connection c = postgres.dataSource().getConnection(); Statement s = c.createStatement()) {
      for (String role : List.of(OWNER, SERVICE)) {
        s.execute("drop role if exists " + role);
        s.execute("create role " + role + " login password '" + role + "'");
      }
      s.execute("alter database " + name + " owner to " + OWNER);
      s.execute("revoke all on database " + name + " from public");
      s.execute("grant connect on database " + name + " to " + SERVICE);
    }
    try (Connection c = postgres.dataSource(name).getConnection(); Statement s = c.createStatement()) {
      s.execute("alter schema public owner to " + OWNER);
      s.execute("revoke create on schema public from public");
    }
    owner = Ledger.pooledDataSource(postgres.jdbcUrl(name), OWNER, OWNER, 2);
    service = Ledger.pooledDataSource(postgres.jdbcUrl(name), SERVICE, SERVICE, 2);
    Ledger.migrate(owner);
    Ledger.grantServiceRights(owner, SERVICE);
  }

  @AfterAll
  static void close() {
    if (service != null) {
      service.close();
    }
    if (owner != null) {
      owner.close();
    }
  }

  @Test
  void shouldLetTheServiceDoItsWorkWithOnlyTheGrantedRights() {
    Ledger ledger = new Ledger(service, Clock.systemUTC(), LedgerFixture.MAX_ATTEMPTS);
    assertThat(Ledger.pendingMigrations(service)).isEmpty();

    Intent intent = new Intent(request("roles-1", 1), "payout.requests-0@1", 0, 1, WALLET, 4, hash("roles-m1"),
        hash("roles-n1"), "te6cckEBAQEAroles", Instant.now().plusSeconds(60), null);
    assertThat(ledger.intents().record(intent)).isInstanceOf(RecordResult.Recorded.class);
    assertThat(ledger.transitions().confirm(intent.messageHash(), hash("roles-tx"), 42L, 1_700L, 2_000L))
        .isInstanceOf(VerdictResult.Applied.class);
    ledger.audit().record(AuditEvent.aboutWallet(LedgerFixture.SUBWALLET, WALLET, 4L, AuditEvent.Level.ERROR,
        AuditEvent.Type.SEQNO_MISMATCH, "expected 4, observed 5"));
    List<AuditRecord> published = new ArrayList<>();
    while (ledger.auditOutbox().publishNext(100, published::addAll) > 0) {
      // until every row is marked
    }
    assertThat(published).isNotEmpty();
    assertThat(ledger.pauses().pause(null, "alice", "INC-1")).isInstanceOf(PauseChange.Changed.class);
    assertThat(ledger.pauses().resume(null, "alice", "INC-1 closed")).isInstanceOf(PauseChange.Changed.class);
  }

  @Test
  void shouldRefuseTheServiceDdlAndAnyRemovalOrRewriteOfTheAuditLog() {
    assertThatThrownBy(() -> execute(service, "create table mine (id int)"))
        .hasMessageContaining("permission denied for schema public");
    assertThatThrownBy(() -> execute(service, "alter table audit_log disable trigger audit_log_no_update"))
        .hasMessageContaining("must be owner");
    assertThatThrownBy(() -> execute(service, "delete from audit_log"))
        .hasMessageContaining("permission denied for table audit_log");
    assertThatThrownBy(() -> execute(service, "truncate audit_log"))
        .hasMessageContaining("permission denied for table audit_log");
    assertThatThrownBy(() -> execute(service, "update audit_log set detail = 'nothing happened'"))
        .hasMessageContaining("permission denied for table audit_log");
    assertThatThrownBy(() -> execute(service, "delete from operator_pauses"))
        .hasMessageContaining("permission denied for table operator_pauses");
    assertThatThrownBy(() -> execute(service, "delete from ton_transactions"))
        .hasMessageContaining("permission denied for table ton_transactions");
  }

  private static void execute(DataSource dataSource, String sql) throws SQLException {
    try (Connection c = dataSource.getConnection(); Statement s = c.createStatement()) {
      s.execute(sql);
    }
  }
}
