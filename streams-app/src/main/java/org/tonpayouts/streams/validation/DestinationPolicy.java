package org.tonpayouts.streams.validation;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.apache.kafka.common.config.ConfigException;
import org.tonpayouts.runtime.PayoutsConfig;
import org.tonpayouts.ton.address.InvalidAddressException;
import org.tonpayouts.ton.address.TonAddress;
import org.tonpayouts.ton.wallet.Subwallets;

/**
 * Destinations this deployment will not pay, whatever the request says: its own subwallets (a
 * payout from one hot wallet to another moves no money out, so it is a producer's mistake, or a
 * stolen producer credential cycling funds and fees) unless {@code destination.own.wallets.allowed},
 * and the addresses of {@code destination.deny.file}. Addresses are compared by workchain and hash,
 * so every form of an address (raw, bounceable or not, testnet flag or not) matches.
 */
public final class DestinationPolicy {
  /**
   * The widest subwallet range whose addresses are indexed at start (about 1 ms of CPU per 100
   * addresses); a wider range needs {@code destination.own.wallets.allowed}.
   */
  public static final long MAX_INDEXED_SUBWALLETS = 100_000;

  private static final DestinationPolicy NONE = new DestinationPolicy(Map.of(), Map.of(), "");

  /** Our subwallets' addresses, with their ids. */
  private final Map<TonAddress, Long> ownWallets;
  /** Denied addresses, with the line of the deny file that names them. */
  private final Map<TonAddress, Integer> denied;
  private final String denyFile;

  private DestinationPolicy(Map<TonAddress, Long> ownWallets, Map<TonAddress, Integer> denied, String denyFile) {
    this.ownWallets = Map.copyOf(ownWallets);
    this.denied = Map.copyOf(denied);
    this.denyFile = denyFile;
  }

  /** No destination refused (tests of other rules, and {@code destination.own.wallets.allowed} with no deny file). */
  public static DestinationPolicy none() {
    return NONE;
  }

  /**
   * The policy this deployment configures, its own subwallets derived from {@code subwallets} over
   * the allowed subwallet range.
   *
   * @throws ConfigException when the deny file cannot be read or holds a line that is not an
   *     address (naming the line), or when the range is too wide to index
   */
  public static DestinationPolicy from(PayoutsConfig config, Subwallets subwallets) {
    Map<TonAddress, Long> own = new HashMap<>();
    if (!config.getBoolean(PayoutsConfig.DESTINATION_OWN_WALLETS_ALLOWED_CONFIG)) {
      long count = config.subwalletMax() - config.subwalletMin() + 1;
      if (count > MAX_INDEXED_SUBWALLETS) {
        throw new ConfigException("the subwallet range " + PayoutsConfig.WALLET_SUBWALLET_MIN_CONFIG + ".."
            + PayoutsConfig.WALLET_SUBWALLET_MAX_CONFIG + " holds " + count + " ids, more than the "
            + MAX_INDEXED_SUBWALLETS + " whose addresses streams-app indexes to refuse payouts to its own wallets:"
            + " narrow the range, or set " + PayoutsConfig.DESTINATION_OWN_WALLETS_ALLOWED_CONFIG + "=true");
      }
      for (long id = config.subwalletMin(); id <= config.subwalletMax(); id++) {
        own.put(subwallets.address(id), id);
      }
    }
    String file = config.getString(PayoutsConfig.DESTINATION_DENY_FILE_CONFIG).strip();
    Map<TonAddress, Integer> denied = file.isEmpty() ? Map.of() : denyList(Path.of(file));
    return new DestinationPolicy(own, denied, file);
  }

  /** Why {@code destination} may not be paid; empty when it may. */
  public Optional<String> problem(TonAddress destination) {
    Long own = ownWallets.get(destination);
    if (own != null) {
      return Optional.of("address " + destination.toRaw() + " is this deployment's own subwallet " + own
          + ": a payout between our wallets moves nothing out and is refused unless "
          + PayoutsConfig.DESTINATION_OWN_WALLETS_ALLOWED_CONFIG + "=true");
    }
    Integer line = denied.get(destination);
    if (line != null) {
      return Optional.of("address " + destination.toRaw() + " is on the deny list (" + denyFile + ", line " + line
          + ")");
    }
    return Optional.empty();
  }

  /** How many own subwallets and denied addresses are refused, for the start-up log. */
  public String summary() {
    return "own_wallets=" + ownWallets.size() + " denied=" + denied.size();
  }

  /**
   * The deny file: one address per line in any form, blank lines and text after {@code #} ignored.
   */
  static Map<TonAddress, Integer> denyList(Path file) {
    List<String> lines;
    try {
      lines = Files.readAllLines(file);
    } catch (IOException e) {
      throw new ConfigException("cannot read " + PayoutsConfig.DESTINATION_DENY_FILE_CONFIG + " " + file + ": " + e);
    }
    Map<TonAddress, Integer> denied = new HashMap<>();
    for (int i = 0; i < lines.size(); i++) {
      String line = lines.get(i);
      int comment = line.indexOf('#');
      String text = (comment >= 0 ? line.substring(0, comment) : line).strip();
      if (text.isEmpty()) {
        continue;
      }
      try {
        denied.putIfAbsent(TonAddress.parse(text), i + 1);
      } catch (InvalidAddressException e) {
        throw new ConfigException(PayoutsConfig.DESTINATION_DENY_FILE_CONFIG + " " + file + ", line " + (i + 1)
            + ": " + e.getMessage());
      }
    }
    return denied;
  }
}
