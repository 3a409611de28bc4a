package org.tonpayouts.cli;

import java.net.URISyntaxException;
import java.nio.file.Path;
import java.security.CodeSource;
import java.util.concurrent.Callable;
import org.tonpayouts.runtime.ConfigTable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code payouts config-table}: regenerates the configuration reference of
 * {@code docs/configuration.md} from PayoutsConfig.
 */
@Command(name = "config-table", mixinStandardHelpOptions = true,
    description = "Rewrites the configuration reference table of " + ConfigTable.PAGE + " (between its markers)"
        + " from PayoutsConfig's keys, defaults and documentation. Run it after adding or changing a key; a test"
        + " fails until you do.")
public final class ConfigTableCommand implements Callable<Integer> {
  @Spec
  CommandSpec spec;

  @Option(names = "--page", paramLabel = "<file>",
      description = "The page to rewrite (default: the checkout's " + ConfigTable.PAGE + ").")
  Path page;

  @Override
  public Integer call() throws Exception {
    Path file = page != null ? page : checkout().resolve(ConfigTable.PAGE);
    boolean changed = ConfigTable.regenerate(file);
    spec.commandLine().getOut().println(changed ? "rewrote the configuration table of " + file
        : "the configuration table of " + file + " is up to date");
    return 0;
  }

  /**
   * The checkout this command runs from: {@code <checkout>/<module>/target/} holds its jar
   * ({@code local.jar}, {@code payouts-cli.jar}) or its classes (tests, IDEs); the working directory otherwise.
   */
  static Path checkout() {
    try {
      CodeSource source = ConfigTableCommand.class.getProtectionDomain().getCodeSource();
      if (source != null) {
        Path target = Path.of(source.getLocation().toURI()).toAbsolutePath().getParent();
        if (target != null && target.getFileName() != null && target.getFileName().toString().equals("target")
            && target.getParent() != null && target.getParent().getParent() != null) {
          return target.getParent().getParent();
        }
      }
    } catch (URISyntaxException | SecurityException e) {
      // fall through to the working directory
    }
    return Path.of("").toAbsolutePath();
  }
}
