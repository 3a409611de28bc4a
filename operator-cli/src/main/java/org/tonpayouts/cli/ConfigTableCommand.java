package org.tonpayouts.cli;

import java.nio.file.Path;
import java.util.concurrent.Callable;
import org.tonpayouts.runtime.Checkout;
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
    Path file = page != null ? page : Checkout.of(ConfigTableCommand.class).resolve(ConfigTable.PAGE);
    boolean changed = ConfigTable.regenerate(file);
    spec.commandLine().getOut().println(changed ? "rewrote the configuration table of " + file
        : "the configuration table of " + file + " is up to date");
    return 0;
  }
}
