package org.tonpayouts.runtime;

import java.net.URI;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.OptionalDouble;
import java.util.Set;
import org.apache.kafka.common.config.ConfigException;

/**
 * Reads {@code ton.api.urls}: providers in order of preference, separated by commas, each a base
 * URL followed by {@code |attribute=value} pairs:
 * <pre>
 * ton.api.urls=https://toncenter.com|key.file=/run/secrets/toncenter|rate=25,\
 *              https://ton-api.example.net|name=own|key.file=/run/secrets/own|rate=50
 * </pre>
 * {@code name} (default: the URL's host, with its port when it has one) tags metrics and logs;
 * {@code key.file} holds that provider's API key; {@code rate} is its requests per second (default
 * {@code ton.api.requests.per.second}). One key holds the list, so it reads the same in a
 * properties file and in one environment variable ({@code PAYOUTS_TON_API_URLS}), and the order
 * of preference is the order written. A key is never written in the list itself: the list is
 * configuration, printed and logged; an inline {@code key=} is refused without being shown.
 */
public final class TonApiProviderList {

  /** One provider as written. */
  public record Entry(String name, URI url, Optional<Path> keyFile, OptionalDouble rate) {}

  private static final Set<String> ATTRIBUTES = Set.of("name", "key.file", "rate");

  private TonApiProviderList() {
  }

  /** @throws ConfigException naming {@code ton.api.urls} and what is wrong (never a key's text) */
  public static List<Entry> parse(String key, String text) {
    List<Entry> entries = new ArrayList<>();
    Set<String> names = new HashSet<>();
    for (String raw : text.split(",")) {
      String item = raw.trim();
      if (item.isEmpty()) {
        continue;
      }
      Entry entry = entry(key, item, entries.size() + 1);
      if (!names.add(entry.name())) {
        throw new ConfigException(key + ": two providers are named '" + entry.name() + "'; give one a name with"
            + " |name=<name>");
      }
      entries.add(entry);
    }
    if (entries.isEmpty()) {
      throw new ConfigException(key + " lists no provider");
    }
    return List.copyOf(entries);
  }

  private static Entry entry(String key, String item, int position) {
    String[] parts = item.split("\\|");
    URI url;
    try {
      url = URI.create(parts[0].trim());
    } catch (IllegalArgumentException e) {
      throw new ConfigException(key + ": provider " + position + " has no valid URL: " + e.getMessage());
    }
    if (url.getHost() == null) {
      throw new ConfigException(key + ": provider " + position + " has no valid URL (" + url + ")");
    }
    String name = url.getPort() > 0 ? url.getHost() + ":" + url.getPort() : url.getHost();
    Optional<Path> keyFile = Optional.empty();
    OptionalDouble rate = OptionalDouble.empty();
    for (int i = 1; i < parts.length; i++) {
      String part = parts[i].trim();
      int eq = part.indexOf('=');
      String attribute = (eq < 0 ? part : part.substring(0, eq)).trim().toLowerCase(Locale.ROOT);
      String value = eq < 0 ? "" : part.substring(eq + 1).trim();
      if (attribute.equals("key") || attribute.equals("api_key") || attribute.equals("apikey")) {
        // the value is never shown: it is a secret written where it does not belong
        throw new ConfigException(key + ": provider " + position + " (" + url + ") has its API key written in the"
            + " list; the list is logged and printed: put the key in a file (chmod 600) and write |key.file=<path>");
      }
      if (!ATTRIBUTES.contains(attribute)) {
        throw new ConfigException(key + ": provider " + position + " (" + url + ") has an unknown attribute '"
            + attribute + "' (known: name, key.file, rate)");
      }
      if (value.isEmpty()) {
        throw new ConfigException(key + ": provider " + position + " (" + url + ") has an empty " + attribute);
      }
      switch (attribute) {
        case "name" -> name = value;
        case "key.file" -> keyFile = Optional.of(Path.of(value));
        default -> rate = OptionalDouble.of(rate(key, position, url, value));
      }
    }
    if (!name.matches("[A-Za-z0-9._:-]+")) {
      throw new ConfigException(key + ": provider " + position + " has the name '" + name + "'; use letters, digits"
          + " and . _ : - (it tags metrics)");
    }
    return new Entry(name, url, keyFile, rate);
  }

  private static double rate(String key, int position, URI url, String value) {
    try {
      double rate = Double.parseDouble(value);
      if (rate >= 0.01 && !Double.isInfinite(rate)) {
        return rate;
      }
    } catch (NumberFormatException e) {
      // below
    }
    throw new ConfigException(key + ": provider " + position + " (" + url + ") has rate=" + value
        + "; give requests per second, at least 0.01");
  }
}
