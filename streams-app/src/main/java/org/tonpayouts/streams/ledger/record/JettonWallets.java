package org.tonpayouts.streams.ledger.record;

import java.util.List;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.tonpayouts.streams.ledger.sql.Checks;
import org.tonpayouts.streams.ledger.sql.LedgerSql;

/**
 * The subwallets' jetton wallets, one per (subwallet, jetton master): resolved once with the
 * master's {@code get_wallet_address} and kept ({@code jetton_wallets}), so no later transfer
 * depends on a node's answer to that question again. The first answer recorded stays.
 */
public final class JettonWallets {
  private static final Logger log = LoggerFactory.getLogger(JettonWallets.class);

  private final LedgerSql sql;

  public JettonWallets(LedgerSql sql) {
    this.sql = sql;
  }

  /** The jetton wallet of {@code wallet} for {@code master} (raw forms), if resolved before. */
  public Optional<String> find(String wallet, String master) {
    String w = Checks.rawAddress(wallet, "wallet");
    String m = Checks.rawAddress(master, "master");
    List<String> found = sql.run("find the jetton wallet of " + w, c -> LedgerSql.query(c,
        "select jetton_wallet from jetton_wallets where wallet_address = ? and master = ?",
        rs -> rs.getString(1), w, m));
    return found.stream().findFirst();
  }

  /**
   * Keeps {@code jettonWallet} as {@code wallet}'s for {@code master}, unless one is kept already.
   *
   * @return the one kept: {@code jettonWallet}, or the one recorded first
   */
  public String remember(String wallet, String master, String jettonWallet) {
    String w = Checks.rawAddress(wallet, "wallet");
    String m = Checks.rawAddress(master, "master");
    String j = Checks.rawAddress(jettonWallet, "jettonWallet");
    String kept = sql.transaction("keep the jetton wallet of " + w, c -> {
      LedgerSql.update(c, "insert into jetton_wallets (wallet_address, master, jetton_wallet, resolved_at)"
          + " values (?, ?, ?, ?) on conflict do nothing", w, m, j, LedgerSql.timestamp(sql.now()));
      return LedgerSql.query(c, "select jetton_wallet from jetton_wallets where wallet_address = ? and master = ?",
          rs -> rs.getString(1), w, m).get(0);
    });
    if (!kept.equals(j)) {
      log.error("jetton wallet answer differs from the one kept wallet={} master={} kept={} answered={}: keeping the"
          + " first; a node that answers get_wallet_address differently is wrong or the master changed its code", w, m,
          kept, j);
    }
    return kept;
  }
}
