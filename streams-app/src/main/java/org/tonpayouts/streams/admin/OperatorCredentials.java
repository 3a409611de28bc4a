package org.tonpayouts.streams.admin;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.Objects;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.tonpayouts.runtime.PayoutsConfig;
import org.tonpayouts.ton.keys.SecretFiles;

/**
 * {@code admin.operators.file} as it is now: looked at on every admin call (one {@code stat}, calls
 * are rare) and read again when its modification time, size or inode changed, so adding, removing or
 * rotating an operator needs no restart. A new version that cannot be used (a bad line, a loose file
 * mode, the file gone) is refused with an ERROR naming why and the previous version stays in force:
 * a slip in the file must never lock every operator out, nor silently let anyone in.
 *
 * <p>The file holds digests only, yet it is read through {@link SecretFiles} (mode 600): whoever can
 * write it can add themselves as an operator, and one rule for every file of credentials is easier to
 * follow than two.
 */
final class OperatorCredentials {
  private static final Logger log = LoggerFactory.getLogger(OperatorCredentials.class);
  private static final String WHAT = PayoutsConfig.ADMIN_OPERATORS_FILE_CONFIG;

  /** What identifies one version of the file without reading it. */
  private record Fingerprint(long modifiedNanos, long size, Object fileKey) {}

  /** The file gone or unreadable. */
  private static final Fingerprint UNREADABLE = new Fingerprint(-1, -1, null);

  private final Path file;
  private OperatorsFile current;
  private Fingerprint loaded;
  /** The version last refused, so one bad edit logs one ERROR, not one per call. */
  private Fingerprint refused;

  private OperatorCredentials(Path file, OperatorsFile current, Fingerprint loaded) {
    this.file = file;
    this.current = current;
    this.loaded = loaded;
  }

  /**
   * Reads the file now (streams-app's start).
   *
   * @throws IllegalArgumentException naming the file (and the line) when it cannot be used
   */
  static OperatorCredentials load(Path file) {
    Objects.requireNonNull(file, "file");
    Fingerprint fingerprint;
    try {
      fingerprint = fingerprint(file);
    } catch (IOException e) {
      throw new IllegalArgumentException(WHAT + " '" + file + "' does not exist or is unreadable: " + e, e);
    }
    OperatorsFile operators = read(file);
    log.info("admin operators loaded file={} operators={}", file, operators.names());
    return new OperatorCredentials(file, operators, fingerprint);
  }

  /** The operators in force: the file's current version, or the last good one while it is unusable. */
  synchronized OperatorsFile current() {
    Fingerprint now;
    try {
      now = fingerprint(file);
    } catch (IOException e) {
      refuse(UNREADABLE, "it cannot be read any more: " + e);
      return current;
    }
    if (now.equals(loaded) || now.equals(refused)) {
      return current;
    }
    try {
      OperatorsFile next = read(file);
      log.warn("admin operators reloaded file={} operators={} before={}", file, next.names(), current.names());
      current = next;
      loaded = now;
      refused = null;
    } catch (IllegalArgumentException e) {
      refuse(now, e.getMessage());
    }
    return current;
  }

  private void refuse(Fingerprint version, String why) {
    if (!version.equals(refused)) {
      log.error("admin operators file changed but is refused; the previous version stays in force until it is"
          + " fixed file={} operators={} why={}", file, current.names(), why);
    }
    refused = version;
  }

  private static OperatorsFile read(Path file) {
    return OperatorsFile.parse(WHAT + " '" + file + "'", SecretFiles.read(WHAT, file));
  }

  private static Fingerprint fingerprint(Path file) throws IOException {
    BasicFileAttributes attributes = Files.readAttributes(file, BasicFileAttributes.class);
    return new Fingerprint(attributes.lastModifiedTime().to(java.util.concurrent.TimeUnit.NANOSECONDS),
        attributes.size(), attributes.fileKey());
  }
}
