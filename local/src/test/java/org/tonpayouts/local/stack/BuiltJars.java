package org.tonpayouts.local.stack;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;

/**
 * The tests that start the apps as child processes need their shaded jars. The reactor packages
 * streams-app and chain-poller before this module's tests run ({@code mvn verify}); without them
 * such a test fails saying so, rather than skipping and reporting green without having run.
 */
public final class BuiltJars {
  private BuiltJars() {}

  /** Fails the test when one of {@code jars} has not been built. */
  public static void require(Path... jars) {
    for (Path jar : jars) {
      assertThat(jar).as("%s is built: run the tests with `mvn -B verify` (the reactor packages the apps before"
          + " this module's tests), or `mvn -B -q install -DskipTests` first", jar.getFileName()).isRegularFile();
    }
  }

  /** Fails the test unless both children's jars are built. */
  public static void requireChildren(Home home) {
    require(home.streamsAppJar(), home.chainPollerJar());
  }
}
