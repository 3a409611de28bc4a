package org.tonpayouts.ton.keys;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.EnumSet;
import java.util.Objects;
import java.util.Set;

/**
 * The one way every secret file is read (wallet key, database password, TON API key, admin token,
 * verdict keys) and the local stack's secret files are written: a file that group or others can
 * read or write is refused, since a key behind a loose file mode is a key anyone with a shell
 * account on the machine holds. Messages name the file and the fix, never its content.
 */
public final class SecretFiles {
  private static final Set<PosixFilePermission> GROUP_OR_OTHERS = EnumSet.of(PosixFilePermission.GROUP_READ,
      PosixFilePermission.GROUP_WRITE, PosixFilePermission.OTHERS_READ, PosixFilePermission.OTHERS_WRITE);
  private static final String OWNER_ONLY = "rw-------";

  private SecretFiles() {}

  /**
   * The content of {@code file}, surrounding whitespace (a final newline) dropped.
   *
   * @param what names the secret in messages, e.g. {@code verdict.mac.keys.file} or {@code wallet secret file}
   * @throws IllegalArgumentException when the file is missing, not a regular file, readable or writable by
   *     group or others (the message says {@code chmod 600 <file>}), unreadable or empty
   */
  public static String read(String what, Path file) {
    Objects.requireNonNull(file, "file");
    String where = what + " '" + file + "'";
    if (!Files.isRegularFile(file)) {
      throw new IllegalArgumentException(where + " does not exist or is not a regular file");
    }
    refuseLooseMode(where, file);
    String content;
    try {
      content = Files.readString(file, StandardCharsets.UTF_8).strip();
    } catch (IOException e) {
      // IOException messages name the file and the reason, never the content
      throw new IllegalArgumentException(where + " is unreadable: " + e, e);
    }
    if (content.isEmpty()) {
      throw new IllegalArgumentException(where + " is empty");
    }
    return content;
  }

  /**
   * Writes {@code content} to a new {@code file} that only its owner may read (mode 600 where the
   * file system has POSIX modes), replacing any file there: created with that mode, so the secret
   * is never readable by others, not even for a moment.
   */
  public static void writeOwnerOnly(Path file, String content) throws IOException {
    Files.deleteIfExists(file);
    try {
      Files.createFile(file, PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString(OWNER_ONLY)));
    } catch (UnsupportedOperationException e) {
      Files.createFile(file); // no POSIX modes: the file system's own access control applies
    }
    Files.writeString(file, content, StandardCharsets.UTF_8);
  }

  private static void refuseLooseMode(String where, Path file) {
    Set<PosixFilePermission> mode;
    try {
      mode = Files.getPosixFilePermissions(file);
    } catch (UnsupportedOperationException e) {
      return; // not a POSIX file system: its own access control applies
    } catch (IOException e) {
      throw new IllegalArgumentException(where + " is unreadable: " + e, e);
    }
    Set<PosixFilePermission> loose = EnumSet.noneOf(PosixFilePermission.class);
    loose.addAll(mode);
    loose.retainAll(GROUP_OR_OTHERS);
    if (!loose.isEmpty()) {
      throw new IllegalArgumentException(where + " may be read or written by group or others ("
          + PosixFilePermissions.toString(mode) + "): chmod 600 " + file + " (and keep it owned by the service's user)");
    }
  }
}
