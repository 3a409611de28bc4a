package org.tonpayouts.runtime;

import java.net.URISyntaxException;
import java.nio.file.Path;
import java.security.CodeSource;

/**
 * The project checkout a command runs from, for the commands that work on its files (the local
 * stack's jars and data, the configuration page): {@code <checkout>/<module>/target/} holds the
 * command's jar or classes (tests, IDEs); anything else runs from the working directory.
 */
public final class Checkout {
  private Checkout() {}

  /** The checkout whose build made {@code type}'s jar or classes; the working directory otherwise. */
  public static Path of(Class<?> type) {
    try {
      CodeSource source = type.getProtectionDomain().getCodeSource();
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
