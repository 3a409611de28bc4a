package org.tonpayouts.embedded;

import java.util.Map;
import org.slf4j.ILoggerFactory;
import org.slf4j.LoggerFactory;

/**
 * Turns the embedded servers' chatter down to WARN so test and launcher output shows our own events.
 *
 * <p>Only acts when the SLF4J backend is Logback, and only on loggers that have no level configured:
 * a level set in {@code logback.xml} (say, {@code kafka} at DEBUG to debug the broker) always wins.
 */
final class QuietLogging {
  private static final String LOGBACK_CONTEXT = "ch.qos.logback.classic.LoggerContext";

  private QuietLogging() {}

  /** Sets each logger to its level ({@code WARN}, {@code ERROR}) unless it has one configured. */
  static void setUnlessConfigured(Map<String, String> levelsByLogger) {
    ILoggerFactory factory = LoggerFactory.getILoggerFactory();
    // Compare by name first: LogbackLevels must not even load when Logback is absent.
    if (LOGBACK_CONTEXT.equals(factory.getClass().getName())) {
      LogbackLevels.setUnlessConfigured(factory, levelsByLogger);
    }
  }
}
