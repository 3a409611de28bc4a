package org.tonpayouts.local.stack;

import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.CodeSource;

/**
 * The project checkout the launcher runs from: where the children's shaded jars are built and
 * where {@code local-data/} goes by default.
 */
public record Home(Path dir) {
  /**
   * The checkout that holds this launcher ({@code <home>/local/target/local.jar}, or
   * {@code <home>/local/target/classes} in tests and IDEs); the working directory otherwise.
   */
  public static Home locate() {
    try {
      CodeSource source = Home.class.getProtectionDomain().getCodeSource();
      if (source != null) {
        Path location = Path.of(source.getLocation().toURI()).toAbsolutePath();
        Path target = location.getParent();
        if (target != null && target.getFileName() != null && target.getFileName().toString().equals("target")
            && target.getParent() != null && target.getParent().getParent() != null) {
          return new Home(target.getParent().getParent());
        }
      }
    } catch (URISyntaxException | SecurityException e) {
      // fall through to the working directory
    }
    return new Home(Path.of("").toAbsolutePath());
  }

  public Path streamsAppJar() {
    return dir.resolve("streams-app/target/streams-app.jar");
  }

  public Path chainPollerJar() {
    return dir.resolve("chain-poller/target/chain-poller.jar");
  }

  public Path defaultDataDir() {
    return dir.resolve("local-data");
  }

  /** Fails with a hint when a child jar has not been built. */
  public void requireJars() {
    for (Path jar : new Path[] {streamsAppJar(), chainPollerJar()}) {
      if (!Files.isRegularFile(jar)) {
        throw new IllegalStateException(jar + " is missing: build it with ./payouts (it builds what is missing)"
            + " or mvn -B -DskipTests install");
      }
    }
  }
}
