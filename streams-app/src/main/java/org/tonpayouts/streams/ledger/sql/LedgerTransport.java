package org.tonpayouts.streams.ledger.sql;

import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Properties;
import java.util.Set;
import org.postgresql.Driver;

/**
 * How the ledger's JDBC URL protects the connection, read the way the PostgreSQL driver reads it:
 * the driver's default {@code sslmode=prefer} encrypts when the server offers TLS but verifies
 * nothing, so anyone on the path can pose as the ledger. streams-app warns at start when a remote
 * ledger is reached without {@code verify-full} or {@code verify-ca}.
 */
public sealed interface LedgerTransport {
  /** The server's certificate is checked against {@code sslrootcert} ({@code verify-ca}, {@code verify-full}). */
  record Verified(String sslmode) implements LedgerTransport {}

  /** Every host is this machine (loopback or a Unix socket): nothing crosses a network. */
  record Local() implements LedgerTransport {}

  /** A remote host with an sslmode that verifies no certificate ({@code disable} to {@code require}). */
  record Unverified(String sslmode) implements LedgerTransport {
    /** The line streams-app logs: what is wrong and the fix (names no host, user or password). */
    public String advice() {
      return "postgres.url reaches a remote ledger with sslmode=" + sslmode + ", which does not verify the server's"
          + " certificate: anyone on the network path can pose as the ledger. Add sslmode=verify-full&sslrootcert="
          + "<CA file> to postgres.url (docs/production.md: PostgreSQL over TLS)";
    }
  }

  Set<String> VERIFYING = Set.of("verify-ca", "verify-full");

  /**
   * Reads {@code jdbcUrl}.
   *
   * @throws IllegalArgumentException when the driver does not take it for a PostgreSQL URL
   */
  static LedgerTransport of(String jdbcUrl) {
    Properties parsed = Driver.parseURL(jdbcUrl, null);
    if (parsed == null) {
      throw new IllegalArgumentException("postgres.url is not a PostgreSQL JDBC URL (jdbc:postgresql://host:port/db)");
    }
    String sslmode = sslmode(parsed);
    if (VERIFYING.contains(sslmode)) {
      return new Verified(sslmode);
    }
    if (parsed.getProperty("socketFactory") != null && parsed.getProperty("socketFactory").contains("unixsocket")) {
      return new Local();
    }
    List<String> hosts = Arrays.asList(parsed.getProperty("PGHOST", "localhost").split(","));
    return hosts.stream().allMatch(LedgerTransport::isLoopback) ? new Local() : new Unverified(sslmode);
  }

  /** The driver's rule: an explicit sslmode wins; else {@code ssl=true} means verify-full; else prefer. */
  private static String sslmode(Properties parsed) {
    String mode = parsed.getProperty("sslmode");
    if (mode != null && !mode.isBlank()) {
      return mode.strip().toLowerCase(Locale.ROOT);
    }
    String ssl = parsed.getProperty("ssl");
    return ssl != null && (ssl.isEmpty() || ssl.equalsIgnoreCase("true")) ? "verify-full" : "prefer";
  }

  private static boolean isLoopback(String host) {
    String h = host.strip();
    if (h.startsWith("[") && h.endsWith("]")) {
      h = h.substring(1, h.length() - 1);
    }
    if (h.equalsIgnoreCase("localhost")) {
      return true;
    }
    // a literal only: resolving a name here would make start-up depend on DNS for a warning
    if (!h.matches("[0-9.]+|[0-9a-fA-F:]+")) {
      return false;
    }
    try {
      return InetAddress.getByName(h).isLoopbackAddress();
    } catch (UnknownHostException e) {
      return false;
    }
  }
}
