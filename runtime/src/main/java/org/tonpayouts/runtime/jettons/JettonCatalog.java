package org.tonpayouts.runtime.jettons;

import java.math.BigInteger;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Pattern;
import org.tonpayouts.ton.address.InvalidAddressException;
import org.tonpayouts.ton.address.TonAddress;

/**
 * The jettons a deployment pays, read from {@code jettons}: entries separated by {@code ;}, each a
 * symbol then {@code key=value} fields separated by spaces, e.g.
 * {@code USDT master=EQCxE6mUtQJKFnGfaROTKOt1lZbDiiX1kCixRv7Nw2Id_sDs decimals=6 max.transfer=10000000000}.
 * Fields: {@code master} and {@code decimals} and {@code max.transfer} (required),
 * {@code max.request} (default 4 × max.transfer), {@code attach.nano} (default
 * {@value #DEFAULT_ATTACH_NANO}), {@code forward.nano} (default {@value #DEFAULT_FORWARD_NANO}).
 * An empty value pays no jetton. Errors name the key, the entry and the field.
 */
public final class JettonCatalog {
  /** 0.05 TON: what toncenter's examples attach; the stablecoin's stated minimum is about 0.0286 TON. */
  public static final long DEFAULT_ATTACH_NANO = 50_000_000L;
  /** 1 nanoton: enough for the recipient's wallet to be notified, with the comment (exchanges' deposits). */
  public static final long DEFAULT_FORWARD_NANO = 1L;
  public static final int MAX_JETTONS = 16;
  private static final Pattern SYMBOL = Pattern.compile("[A-Za-z0-9._-]{1,16}");
  private static final Set<String> FIELDS =
      Set.of("master", "decimals", "attach.nano", "forward.nano", "max.transfer", "max.request");

  private final Map<TonAddress, JettonSettings> byMaster;

  private JettonCatalog(Map<TonAddress, JettonSettings> byMaster) {
    this.byMaster = byMaster;
  }

  public static JettonCatalog none() {
    return new JettonCatalog(Map.of());
  }

  public static JettonCatalog of(List<JettonSettings> jettons) {
    Map<TonAddress, JettonSettings> map = new LinkedHashMap<>();
    jettons.forEach(j -> map.put(j.master(), j));
    return new JettonCatalog(map);
  }

  /**
   * @throws IllegalArgumentException naming {@code key}, the refused entry and why
   */
  public static JettonCatalog parse(String key, String value) {
    if (value == null || value.isBlank()) {
      return none();
    }
    Map<TonAddress, JettonSettings> byMaster = new LinkedHashMap<>();
    Set<String> symbols = new HashSet<>();
    for (String raw : value.split(";", -1)) {
      String entry = raw.strip();
      if (entry.isEmpty()) {
        continue;
      }
      JettonSettings jetton = entry(key, entry);
      if (!symbols.add(jetton.symbol())) {
        throw refused(key, entry, "the symbol " + jetton.symbol() + " is given twice");
      }
      if (byMaster.put(jetton.master(), jetton) != null) {
        throw refused(key, entry, "the master " + jetton.master().toRaw() + " is given twice");
      }
    }
    if (byMaster.size() > MAX_JETTONS) {
      throw new IllegalArgumentException(key + ": at most " + MAX_JETTONS + " jettons, got " + byMaster.size());
    }
    return new JettonCatalog(Map.copyOf(byMaster));
  }

  private static JettonSettings entry(String key, String entry) {
    String[] parts = entry.split("\\s+");
    String symbol = parts[0];
    if (!SYMBOL.matcher(symbol).matches()) {
      throw refused(key, entry, "an entry starts with the jetton's symbol (1 to 16 of A-Z a-z 0-9 . _ -), then"
          + " key=value fields, e.g. USDT master=EQ... decimals=6 max.transfer=10000000000");
    }
    Map<String, String> fields = new LinkedHashMap<>();
    for (int i = 1; i < parts.length; i++) {
      int eq = parts[i].indexOf('=');
      String name = eq < 0 ? parts[i] : parts[i].substring(0, eq);
      if (eq < 0 || !FIELDS.contains(name)) {
        throw refused(key, entry, "'" + parts[i] + "' is not one of " + new java.util.TreeSet<>(FIELDS) + " as key=value");
      }
      if (fields.put(name, parts[i].substring(eq + 1)) != null) {
        throw refused(key, entry, name + " is given twice");
      }
    }
    for (String required : List.of("master", "decimals", "max.transfer")) {
      if (!fields.containsKey(required)) {
        throw refused(key, entry, required + " is required");
      }
    }
    TonAddress master;
    try {
      master = TonAddress.parse(fields.get("master"));
    } catch (InvalidAddressException e) {
      throw refused(key, entry, "master: " + e.getMessage());
    }
    try {
      BigInteger maxTransfer = units(fields.get("max.transfer"), "max.transfer");
      BigInteger maxRequest = fields.containsKey("max.request") ? units(fields.get("max.request"), "max.request")
          : maxTransfer.multiply(BigInteger.valueOf(4));
      return new JettonSettings(symbol, master, Integer.parseInt(number(fields.get("decimals"), "decimals")),
          Long.parseLong(number(fields.getOrDefault("attach.nano", Long.toString(DEFAULT_ATTACH_NANO)), "attach.nano")),
          Long.parseLong(number(fields.getOrDefault("forward.nano", Long.toString(DEFAULT_FORWARD_NANO)), "forward.nano")),
          maxTransfer, maxRequest);
    } catch (IllegalArgumentException e) {
      throw refused(key, entry, e.getMessage());
    }
  }

  private static String number(String text, String field) {
    if (!text.matches("\\d{1,18}")) {
      throw new IllegalArgumentException(field + " must be a whole number of at most 18 digits, got '" + text + "'");
    }
    return text;
  }

  private static BigInteger units(String text, String field) {
    if (!text.matches("[1-9]\\d{0,36}")) {
      throw new IllegalArgumentException(field + " must be a positive whole number of base units, got '" + text + "'");
    }
    return new BigInteger(text);
  }

  private static IllegalArgumentException refused(String key, String entry, String why) {
    String shown = entry.length() > 120 ? entry.substring(0, 117) + "..." : entry;
    return new IllegalArgumentException(key + ": entry '" + shown + "': " + why);
  }

  /** The jetton whose master is {@code master}, whatever its spelling. */
  public Optional<JettonSettings> byMaster(TonAddress master) {
    return Optional.ofNullable(byMaster.get(master));
  }

  public List<JettonSettings> all() {
    return new ArrayList<>(byMaster.values());
  }

  public boolean isEmpty() {
    return byMaster.isEmpty();
  }
}
