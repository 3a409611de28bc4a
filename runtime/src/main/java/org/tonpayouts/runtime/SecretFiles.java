package org.tonpayouts.runtime;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.EnumSet;
import java.util.Set;
import org.apache.kafka.common.config.ConfigException;

/**
 * Reads a secret from a file, refusing one that others on the machine can read: a key that leaks
 * through a loose file mode is a key anyone with a shell account holds.
 */
public final class SecretFiles {
  private static final Set<PosixFilePermission> OTHERS = EnumSet.of(PosixFilePermission.GROUP_READ,
      PosixFilePermission.GROUP_WRITE, PosixFilePermission.OTHERS_READ, PosixFilePermission.OTHERS_WRITE);

  private SecretFiles() {}

  /**
   * The content of {@code file}, named by the configuration key {@code key}.
   *
   * @throws ConfigException when it cannot be read, or group or others may read or write it (the
   *     message names the file, its mode and the fix)
   */
  public static String read(String key, Path file) {
    try {
      Set<PosixFilePermission> loose = EnumSet.copyOf(Files.getPosixFilePermissions(file));
      loose.retainAll(OTHERS);
      if (!loose.isEmpty()) {
        throw new ConfigException(key + " " + file + " may be read or written by group or others ("
            + PosixFilePermissions.toString(Files.getPosixFilePermissions(file)) + "): chmod 600 " + file
            + " (and keep it owned by the service's user)");
      }
    } catch (UnsupportedOperationException e) {
      // not a POSIX file system: its own access control applies
    } catch (IOException e) {
      throw new ConfigException("cannot read " + key + " " + file + ": " + e);
    }
    try {
      return Files.readString(file);
    } catch (IOException e) {
      throw new ConfigException("cannot read " + key + " " + file + ": " + e);
    }
  }
}
