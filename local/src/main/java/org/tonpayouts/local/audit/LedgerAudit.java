package org.tonpayouts.local.audit;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import org.tonpayouts.devnet.Devnet;
import org.tonpayouts.devnet.chain.DevnetTransaction;
import org.tonpayouts.ton.address.TonAddress;

/**
 * Checks the ledger after a run: every wallet's applied messages (CONFIRMED or FAILED: both used
 * a seqno on chain) have consecutive seqnos; on devnet, starting from 0 and ending where the
 * wallet's seqno is (a message still in flight, SIGNED or SENT, may already have moved it by one),
 * and every CONFIRMED row names a real transaction of that wallet applied by that very message
 * (tx hash, lt, message hash).
 */
public final class LedgerAudit {
  private static final String APPLIED_ROWS = "select wallet_address, seqno, status, message_hash, tx_hash, lt"
      + " from ton_transactions where status in ('CONFIRMED', 'FAILED') order by wallet_address, seqno";
  private static final String LIVE_COUNTS = "select wallet_address, count(*) from ton_transactions"
      + " where status in ('SIGNED', 'SENT') group by wallet_address";
  private static final String STATUS_COUNTS = "select status, count(*) from ton_transactions group by status";

  /**
   * What the audit found.
   *
   * @param walletsChecked paying wallets looked at
   * @param appliedMessages ledger rows that used a seqno on chain
   * @param statusCounts ledger rows by status (EXPIRED attempts included)
   * @param problems one line per broken rule; empty when everything is consistent
   */
  public record Report(int walletsChecked, int appliedMessages, Map<String, Integer> statusCounts,
                       List<String> problems) {
    public boolean consecutive() {
      return problems.isEmpty();
    }
  }

  private record Row(long seqno, String status, String messageHash, String txHash, Long lt) {}

  private LedgerAudit() {}

  /**
   * Audits the ledger at {@code jdbcUrl} for {@code wallets} (the paying wallets' addresses by
   * subwallet id); with devnet, also against the chain.
   */
  public static Report run(String jdbcUrl, String user, String password, Map<Long, TonAddress> wallets,
      Optional<Devnet> devnet) {
    Map<String, List<Row>> byWallet = new HashMap<>();
    Map<String, Integer> statusCounts = new TreeMap<>();
    Map<String, Integer> liveByWallet = new HashMap<>();
    try (Connection c = DriverManager.getConnection(jdbcUrl, user, password)) {
      try (PreparedStatement ps = c.prepareStatement(APPLIED_ROWS); ResultSet rs = ps.executeQuery()) {
        while (rs.next()) {
          long lt = rs.getLong("lt");
          byWallet.computeIfAbsent(rs.getString("wallet_address"), w -> new ArrayList<>()).add(new Row(
              rs.getLong("seqno"), rs.getString("status"), rs.getString("message_hash"), rs.getString("tx_hash"),
              rs.wasNull() ? null : lt));
        }
      }
      try (PreparedStatement ps = c.prepareStatement(LIVE_COUNTS); ResultSet rs = ps.executeQuery()) {
        while (rs.next()) {
          liveByWallet.put(rs.getString(1), rs.getInt(2));
        }
      }
      try (PreparedStatement ps = c.prepareStatement(STATUS_COUNTS); ResultSet rs = ps.executeQuery()) {
        while (rs.next()) {
          statusCounts.put(rs.getString(1), rs.getInt(2));
        }
      }
    } catch (SQLException e) {
      throw new IllegalStateException("cannot read the ledger at " + jdbcUrl + ": " + e.getMessage(), e);
    }
    List<String> problems = new ArrayList<>();
    int applied = 0;
    for (Map.Entry<Long, TonAddress> w : wallets.entrySet()) {
      long id = w.getKey();
      TonAddress wallet = w.getValue();
      List<Row> rows = byWallet.getOrDefault(wallet.toRaw(), List.of());
      applied += rows.size();
      checkConsecutive(id, rows, devnet.isPresent(), problems);
      int live = liveByWallet.getOrDefault(wallet.toRaw(), 0);
      devnet.ifPresent(d -> checkAgainstChain(id, wallet, rows, live, d, problems));
    }
    return new Report(wallets.size(), applied, statusCounts, List.copyOf(problems));
  }

  private static void checkConsecutive(long id, List<Row> rows, boolean freshWallet, List<String> problems) {
    if (rows.isEmpty()) {
      return;
    }
    long expected = freshWallet ? 0 : rows.get(0).seqno();
    for (Row row : rows) {
      if (row.seqno() != expected) {
        problems.add("subwallet " + id + ": seqno " + row.seqno() + " where " + expected + " was expected");
        return;
      }
      expected++;
    }
  }

  private static void checkAgainstChain(long id, TonAddress wallet, List<Row> rows, int live, Devnet devnet,
      List<String> problems) {
    long chainSeqno = devnet.seqno(wallet);
    // one message in flight per wallet: it may have applied already without its verdict recorded yet
    if (chainSeqno < rows.size() || chainSeqno > rows.size() + Math.min(live, 1)) {
      problems.add("subwallet " + id + ": devnet seqno is " + chainSeqno + " but the ledger has " + rows.size()
          + " applied messages and " + live + " in flight");
    }
    Map<String, DevnetTransaction> txByHash = new HashMap<>();
    devnet.transactions(wallet).forEach(tx -> txByHash.put(tx.hash(), tx));
    for (Row row : rows) {
      if (!"CONFIRMED".equals(row.status())) {
        continue;
      }
      DevnetTransaction tx = txByHash.get(row.txHash());
      if (tx == null) {
        problems.add("subwallet " + id + " seqno " + row.seqno() + ": tx " + row.txHash() + " is not on devnet");
      } else if (row.lt() == null || tx.lt() != row.lt() || !tx.inMsg().hash().equals(row.messageHash())) {
        problems.add("subwallet " + id + " seqno " + row.seqno() + ": tx " + row.txHash()
            + " does not match (lt or message hash differ)");
      }
    }
  }
}
