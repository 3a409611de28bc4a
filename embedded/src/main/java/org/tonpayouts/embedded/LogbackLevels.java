package org.tonpayouts.embedded;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.LoggerContext;
import java.util.Map;
import org.slf4j.ILoggerFactory;

/** The Logback half of {@link QuietLogging}; loaded only when Logback is the SLF4J backend. */
final class LogbackLevels {
  private LogbackLevels() {}

  static void setUnlessConfigured(ILoggerFactory factory, Map<String, String> levelsByLogger) {
    LoggerContext context = (LoggerContext) factory;
    levelsByLogger.forEach(
        (name, level) -> {
          Logger logger = context.getLogger(name);
          if (logger.getLevel() == null) {
            logger.setLevel(Level.toLevel(level, Level.WARN));
          }
        });
  }
}
