package org.tonpayouts.runtime.ops;

import static org.assertj.core.api.Assertions.assertThat;

import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.slf4j.LoggerFactory;

/** What the operator's log gets of a failing check: its cause once when it goes down, a line when it comes back. */
class HealthTest {
  private final Logger logger = (Logger) LoggerFactory.getLogger(Health.class);
  private final ListAppender<ILoggingEvent> logged = new ListAppender<>();

  @BeforeEach
  void capture() {
    logged.start();
    logger.addAppender(logged);
  }

  @AfterEach
  void release() {
    logger.detachAppender(logged);
  }

  @Test
  void shouldLogTheCauseWhenACheckGoesDownAndALineWhenItComesBack() {
    AtomicReference<CheckResult> database = new AtomicReference<>(
        CheckResult.down("PSQLException (SQLState 08001)", "PSQLException: Connection to db.internal:5432 refused"));
    Health health = new Health().ready("postgres", database::get);

    Health.Report down = health.readiness();
    health.readiness();
    database.set(CheckResult.up("connection valid"));
    health.readiness();

    assertThat(down.checks().get("postgres").detail()).isEqualTo("PSQLException (SQLState 08001)");
    assertThat(logged.list).extracting(ILoggingEvent::getFormattedMessage).containsExactly(
        "health check down probe=ready check=postgres detail=\"PSQLException (SQLState 08001)\""
            + " cause=\"PSQLException: Connection to db.internal:5432 refused\"",
        "health check up again probe=ready check=postgres detail=\"connection valid\"");
  }
}
