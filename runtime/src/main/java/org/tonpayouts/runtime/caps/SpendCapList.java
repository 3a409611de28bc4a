package org.tonpayouts.runtime.caps;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

/**
 * Reads a list of rolling caps as configured ({@code spend.cap.wallet}, {@code spend.cap.deployment}):
 * comma-separated {@code <window>:<nanotons>} entries, the window a whole number with a unit
 * {@code m}, {@code h} or {@code d}, e.g. {@code 1h:500000000000,24h:5000000000000}. An
 * empty value is no cap. Errors name the key and the entry.
 */
public final class SpendCapList {
  /** Windows per list at most: each costs a bucket write per signed transfer. */
  public static final int MAX_WINDOWS = 8;
  private static final Pattern ENTRY = Pattern.compile("(\\d{1,9})([mhd]):(\\d{1,19})");

  private SpendCapList() {}

  /**
   * @throws IllegalArgumentException naming {@code key} and the refused entry, and why
   */
  public static List<SpendCap> parse(String key, String value) {
    if (value == null || value.isBlank()) {
      return List.of();
    }
    List<SpendCap> caps = new ArrayList<>();
    Set<Duration> windows = new HashSet<>();
    for (String raw : value.split(",", -1)) {
      String entry = raw.strip();
      Matcher m = ENTRY.matcher(entry);
      if (!m.matches()) {
        throw refused(key, entry, "expected <window>:<nanotons>, the window a whole number with s, m, h or d"
            + " (e.g. 1h:500000000000)");
      }
      Duration window = window(Long.parseLong(m.group(1)), m.group(2).charAt(0));
      long cap;
      try {
        cap = Long.parseLong(m.group(3));
      } catch (NumberFormatException e) {
        throw refused(key, entry, "the cap does not fit in 64 bits of nanotons");
      }
      SpendCap spendCap;
      try {
        spendCap = new SpendCap(window, cap);
      } catch (IllegalArgumentException e) {
        throw refused(key, entry, e.getMessage());
      }
      if (!windows.add(window)) {
        throw refused(key, entry, "the window " + formatWindow(window) + " is given twice");
      }
      caps.add(spendCap);
    }
    if (caps.size() > MAX_WINDOWS) {
      throw new IllegalArgumentException(key + ": at most " + MAX_WINDOWS + " windows, got " + caps.size());
    }
    return List.copyOf(caps);
  }

  /** The list as it is configured. */
  public static String format(List<SpendCap> caps) {
    return caps.stream().map(SpendCap::toString).collect(Collectors.joining(","));
  }

  /** A window as configured: {@code 1d}, {@code 6h}, {@code 90m}. */
  public static String formatWindow(Duration window) {
    long s = window.getSeconds();
    if (s % 86_400 == 0) {
      return s / 86_400 + "d";
    }
    if (s % 3_600 == 0) {
      return s / 3_600 + "h";
    }
    return s / 60 + "m";
  }

  private static Duration window(long amount, char unit) {
    return switch (unit) {
      case 'm' -> Duration.ofMinutes(amount);
      case 'h' -> Duration.ofHours(amount);
      default -> Duration.ofDays(amount);
    };
  }

  private static IllegalArgumentException refused(String key, String entry, String why) {
    return new IllegalArgumentException(key + ": entry '" + entry + "' refused: " + why);
  }
}
