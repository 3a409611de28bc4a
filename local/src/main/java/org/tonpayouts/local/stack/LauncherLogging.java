package org.tonpayouts.local.stack;

import ch.qos.logback.classic.LoggerContext;
import ch.qos.logback.classic.joran.JoranConfigurator;
import ch.qos.logback.core.joran.spi.JoranException;
import java.net.URL;
import java.nio.file.Path;
import org.slf4j.ILoggerFactory;
import org.slf4j.LoggerFactory;

/**
 * Sends the launcher's own log (broker, PostgreSQL, devnet, launcher events) to a file in the run
 * directory, so nothing but the progress display and the summary reaches the terminal.
 *
 * <p>Acts only when the launcher's own {@code logback.xml} is in charge (it sets the context
 * property {@value #MARKER}); tests keep their {@code logback-test.xml}.
 */
final class LauncherLogging {
  static final String MARKER = "payouts.launcher.logging";
  private static final String FILE_CONFIG = "/org/tonpayouts/local/stack/launcher-file-logback.xml";

  private LauncherLogging() {}

  static void toFile(Path logFile) {
    ILoggerFactory factory = LoggerFactory.getILoggerFactory();
    if (!(factory instanceof LoggerContext context) || context.getProperty(MARKER) == null) {
      return;
    }
    URL config = LauncherLogging.class.getResource(FILE_CONFIG);
    context.reset();
    context.putProperty("LAUNCHER_LOG", logFile.toString());
    JoranConfigurator configurator = new JoranConfigurator();
    configurator.setContext(context);
    try {
      configurator.doConfigure(config);
    } catch (JoranException e) {
      throw new IllegalStateException("cannot configure the launcher log " + logFile, e);
    }
  }
}
