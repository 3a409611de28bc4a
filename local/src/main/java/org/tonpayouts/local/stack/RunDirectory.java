package org.tonpayouts.local.stack;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.LocalDateTime;
import java.time.format.DateTimeFormatter;

/**
 * One run's directory, {@code <data dir>/run-<yyyyMMdd-HHmmss>}: the children's configuration,
 * their logs, GC logs and state directories, and the launcher's own log.
 */
public record RunDirectory(Path dir, String runId) {
  private static final DateTimeFormatter STAMP = DateTimeFormatter.ofPattern("yyyyMMdd-HHmmss");

  /** Creates a fresh run directory under {@code dataDir} (a suffix is added if the second is taken). */
  public static RunDirectory create(Path dataDir, Clock clock) {
    String stamp = LocalDateTime.now(clock).format(STAMP);
    try {
      Files.createDirectories(dataDir);
      for (int i = 0; ; i++) {
        String id = i == 0 ? stamp : stamp + "-" + i;
        Path dir = dataDir.resolve("run-" + id).toAbsolutePath().normalize();
        try {
          Files.createDirectory(dir);
          return new RunDirectory(dir, id);
        } catch (java.nio.file.FileAlreadyExistsException e) {
          // two runs in one second: take the next suffix
        }
      }
    } catch (IOException e) {
      throw new UncheckedIOException("cannot create a run directory under " + dataDir, e);
    }
  }

  public Path file(String name) {
    return dir.resolve(name);
  }

  /** A subdirectory, created if missing. */
  public Path subdir(String name) {
    try {
      return Files.createDirectories(dir.resolve(name));
    } catch (IOException e) {
      throw new UncheckedIOException("cannot create " + dir.resolve(name), e);
    }
  }
}
