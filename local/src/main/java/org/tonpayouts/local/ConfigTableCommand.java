package org.tonpayouts.local;

import java.nio.file.Path;
import java.util.concurrent.Callable;
import org.tonpayouts.runtime.ConfigTable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/** {@code payouts config-table}: regenerates the README's configuration table from PayoutsConfig. */
@Command(name = "config-table", mixinStandardHelpOptions = true,
    description = "Rewrites the configuration table of the README (between its markers) from PayoutsConfig's keys,"
        + " defaults and documentation. Run it after adding or changing a key; a test fails until you do.")
public final class ConfigTableCommand implements Callable<Integer> {
  @Spec
  CommandSpec spec;

  @Option(names = "--readme", paramLabel = "<file>", description = "The README to rewrite (default: the checkout's).")
  Path readme;

  @Override
  public Integer call() throws Exception {
    Path file = readme != null ? readme : Home.locate().dir().resolve("README.md");
    boolean changed = ConfigTable.regenerate(file);
    spec.commandLine().getOut().println(changed ? "rewrote the configuration table of " + file
        : "the configuration table of " + file + " is up to date");
    return 0;
  }
}
