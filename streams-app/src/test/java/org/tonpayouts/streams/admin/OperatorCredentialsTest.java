package org.tonpayouts.streams.admin;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Instant;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.slf4j.LoggerFactory;
import org.tonpayouts.runtime.admin.OperatorTokens;
import org.tonpayouts.ton.keys.SecretFiles;

/**
 * admin.operators.file while streams-app runs: a valid new version takes effect at the next call; an
 * invalid one is refused with one ERROR and the previous version stays in force, so a slip in the file
 * locks nobody out; a file others may write is refused at start.
 */
class OperatorCredentialsTest {
  private static final String ALICE = OperatorTokens.newToken();
  private static final String DAVE = OperatorTokens.newToken();
  private final Logger logger = (Logger) LoggerFactory.getLogger(OperatorCredentials.class);
  private final ListAppender<ILoggingEvent> logged = new ListAppender<>();

  @TempDir
  Path dir;

  @BeforeEach
  void capture() {
    logged.start();
    logger.addAppender(logged);
  }

  @AfterEach
  void release() {
    logger.detachAppender(logged);
  }

  @Test
  void shouldTakeAValidNewVersionAtTheNextCall() throws IOException {
    Path file = write(dir.resolve("operators"), OperatorTokens.line("alice", ALICE), 1);
    AdminAccess.Operators access = new AdminAccess.Operators(OperatorCredentials.load(file));
    assertThat(access.authenticate("Bearer " + DAVE)).isInstanceOf(Authentication.Refused.class);

    write(file, OperatorTokens.line("alice", ALICE) + "\n" + OperatorTokens.line("dave", DAVE), 2);

    assertThat(access.authenticate("Bearer " + DAVE)).isEqualTo(new Authentication.Operator("dave"));
    assertThat(access.authenticate("bearer " + ALICE)).isEqualTo(new Authentication.Operator("alice"));
  }

  @Test
  void shouldKeepThePreviousVersionWhenTheNewOneIsInvalidAndSayWhyOnce() throws IOException {
    Path file = write(dir.resolve("operators"), OperatorTokens.line("alice", ALICE), 1);
    AdminAccess.Operators access = new AdminAccess.Operators(OperatorCredentials.load(file));

    write(file, OperatorTokens.line("alice", ALICE) + "\ndave sha256:123\n", 2);

    assertThat(access.authenticate("Bearer " + ALICE)).isEqualTo(new Authentication.Operator("alice"));
    assertThat(access.authenticate("Bearer " + ALICE)).isEqualTo(new Authentication.Operator("alice"));
    assertThat(logged.list).filteredOn(e -> e.getLevel() == Level.ERROR).singleElement()
        .satisfies(e -> assertThat(e.getFormattedMessage()).contains("previous version stays in force")
            .contains("line 2: the SHA-256 digest must be 64 hex digits").contains("operators=[alice]")
            .doesNotContain(ALICE));

    Files.delete(file);
    assertThat(access.authenticate("Bearer " + ALICE)).isEqualTo(new Authentication.Operator("alice"));
    assertThat(logged.list).filteredOn(e -> e.getLevel() == Level.ERROR).hasSize(2);

    write(file, OperatorTokens.line("dave", DAVE), 3);
    assertThat(access.authenticate("Bearer " + DAVE)).isEqualTo(new Authentication.Operator("dave"));
    assertThat(access.authenticate("Bearer " + ALICE)).isInstanceOf(Authentication.Refused.class);
  }

  @Test
  void shouldRefuseAFileOthersMayWriteAtStart() throws IOException {
    Path file = write(dir.resolve("operators"), OperatorTokens.line("alice", ALICE), 1);
    Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rw-rw-rw-"));

    assertThatThrownBy(() -> OperatorCredentials.load(file)).isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("may be read or written by group or others").hasMessageContaining("chmod 600");
  }

  @Test
  void shouldRefuseARequestWithoutABearerToken() throws IOException {
    Path file = write(dir.resolve("operators"), OperatorTokens.line("alice", ALICE), 1);
    AdminAccess.Operators access = new AdminAccess.Operators(OperatorCredentials.load(file));

    assertThat(access.authenticate(null)).isEqualTo(new Authentication.Refused("no bearer token"));
    assertThat(access.authenticate("Bearer ")).isEqualTo(new Authentication.Refused("no bearer token"));
    assertThat(access.authenticate("Basic " + ALICE)).isEqualTo(new Authentication.Refused("no bearer token"));
    assertThat(access.authenticate("Bearer " + ALICE.substring(1)))
        .isEqualTo(new Authentication.Refused("no operator has this token"));
  }

  /**
   * Writes the file owner-only, with a modification time of its own per version: a rewrite within the
   * file system's timestamp granularity would otherwise look unchanged (the reload also compares size and inode).
   */
  private static Path write(Path file, String text, int version) throws IOException {
    SecretFiles.writeOwnerOnly(file, text + "\n");
    Files.setLastModifiedTime(file, FileTime.from(Instant.parse("2026-01-01T00:00:00Z").plusSeconds(version)));
    return file;
  }
}
