package org.tonpayouts.local.stack;

import java.nio.file.Files;
import java.nio.file.Path;
import org.tonpayouts.runtime.Checkout;

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
    return new Home(Checkout.of(Home.class));
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
