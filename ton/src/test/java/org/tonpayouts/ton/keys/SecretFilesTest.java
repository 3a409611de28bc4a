package org.tonpayouts.ton.keys;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Every secret file is read, and the local stack's are written, one way: owner-only or refused. */
class SecretFilesTest {
  @TempDir
  Path dir;

  @Test
  void shouldWriteAFileOnlyItsOwnerMayReadReplacingALooseOne() throws Exception {
    Path file = Files.writeString(dir.resolve("token"), "old");
    Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rw-rw-rw-"));

    SecretFiles.writeOwnerOnly(file, "  new-secret\n");

    assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(file))).isEqualTo("rw-------");
    assertThat(SecretFiles.read("admin.token.file", file)).isEqualTo("new-secret");
  }

  @Test
  void shouldRefuseALooseModeAnEmptyFileAndADirectoryNamingTheFileNotItsContent() throws Exception {
    Path loose = Files.writeString(dir.resolve("loose"), "hunter2-hunter2");
    Files.setPosixFilePermissions(loose, PosixFilePermissions.fromString("rw-r-----"));
    Path empty = dir.resolve("empty");
    SecretFiles.writeOwnerOnly(empty, "\n");

    assertThatThrownBy(() -> SecretFiles.read("postgres.password.file", loose))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("postgres.password.file '" + loose + "' may be read or written by group or others (rw-r-----):"
            + " chmod 600 " + loose + " (and keep it owned by the service's user)")
        .hasMessageNotContaining("hunter2");
    assertThatThrownBy(() -> SecretFiles.read("ton.api.key.file", empty))
        .hasMessage("ton.api.key.file '" + empty + "' is empty");
    assertThatThrownBy(() -> SecretFiles.read("ton.api.key.file", dir))
        .hasMessage("ton.api.key.file '" + dir + "' does not exist or is not a regular file");
  }
}
