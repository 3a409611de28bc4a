package org.tonpayouts.embedded;

import java.util.Locale;
import java.util.concurrent.atomic.AtomicLong;
import javax.sql.DataSource;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One Kafka broker and one PostgreSQL server per test JVM, started on first use and stopped when
 * the JVM exits. Tests never stop them; they isolate themselves by topic name ({@link
 * #uniqueName(String)}) and by database ({@link #createDatabase(Class)}).
 *
 * <p>Plain Java on purpose (no JUnit dependency): any test framework, or a {@code main}, can use it.
 */
public final class SharedTestInfrastructure {
  private static final Logger log = LoggerFactory.getLogger(SharedTestInfrastructure.class);
  private static final AtomicLong NAMES = new AtomicLong();

  private static EmbeddedKafkaBroker kafka;
  private static EmbeddedPostgresServer postgres;

  private SharedTestInfrastructure() {}

  /** The JVM's broker, started on the first call (about 4 s). */
  public static synchronized EmbeddedKafkaBroker kafka() {
    if (kafka == null) {
      EmbeddedKafkaBroker started = EmbeddedKafkaBroker.start();
      stopAtExit("kafka", started);
      kafka = started;
    }
    return kafka;
  }

  /** The JVM's PostgreSQL server, started on the first call (about 2 s). */
  public static synchronized EmbeddedPostgresServer postgres() {
    if (postgres == null) {
      EmbeddedPostgresServer started = EmbeddedPostgresServer.start();
      stopAtExit("postgres", started);
      postgres = started;
    }
    return postgres;
  }

  /** A fresh, empty database on the shared server; an existing one of that name is dropped. */
  public static DataSource createDatabase(String name) {
    return postgres().createDatabase(name);
  }

  /** A fresh database named after the test class: {@code LedgerTest} gets {@code ledger_test}. */
  public static DataSource createDatabase(Class<?> testClass) {
    return createDatabase(databaseName(testClass));
  }

  /** The database name {@link #createDatabase(Class)} uses for {@code testClass}. */
  public static String databaseName(Class<?> testClass) {
    String snake =
        testClass
            .getSimpleName()
            .replaceAll("([a-z0-9])([A-Z])", "$1_$2")
            .replaceAll("[^A-Za-z0-9_]", "_")
            .toLowerCase(Locale.ROOT);
    String name = Character.isDigit(snake.charAt(0)) ? "_" + snake : snake;
    return name.length() > 63 ? name.substring(0, 63) : name;
  }

  /**
   * A name unique in this JVM and unlikely to repeat across runs, for topics, consumer groups and
   * application ids: {@code prefix-<n>-<random>}.
   */
  public static String uniqueName(String prefix) {
    return prefix
        + "-"
        + NAMES.incrementAndGet()
        + "-"
        + Long.toString(System.nanoTime() & 0xffffffL, 36);
  }

  private static void stopAtExit(String what, AutoCloseable server) {
    Thread hook =
        new Thread(
            () -> {
              try {
                server.close();
              } catch (Exception e) {
                log.warn("could not stop shared {} at exit error={}", what, e.toString());
              }
            },
            "shared-" + what + "-stop");
    Runtime.getRuntime().addShutdownHook(hook);
  }
}
