package org.tonpayouts.embedded;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.stream.Stream;

/** Data directories of the embedded servers: created on start, temporary ones deleted on close. */
final class Directories {
  private Directories() {}

  static Path createTemp(String prefix) {
    try {
      return Files.createTempDirectory(prefix);
    } catch (IOException e) {
      throw new UncheckedIOException("could not create a temporary directory " + prefix, e);
    }
  }

  static Path create(Path dir) {
    try {
      return Files.createDirectories(dir);
    } catch (IOException e) {
      throw new UncheckedIOException("could not create directory " + dir, e);
    }
  }

  static void deleteRecursively(Path dir) {
    if (!Files.exists(dir)) {
      return;
    }
    try (Stream<Path> paths = Files.walk(dir)) {
      paths.sorted(Comparator.reverseOrder()).forEach(Directories::deleteOne);
    } catch (IOException | UncheckedIOException e) {
      // Leftovers in the temp dir are untidy, not wrong; never fail a shutdown over them.
      org.slf4j.LoggerFactory.getLogger(Directories.class)
          .warn("could not delete directory dir={} error={}", dir, e.toString());
    }
  }

  private static void deleteOne(Path path) {
    try {
      Files.deleteIfExists(path);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
