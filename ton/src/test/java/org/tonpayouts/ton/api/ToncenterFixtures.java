package org.tonpayouts.ton.api;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;

/** Recorded toncenter answers under {@code toncenter/} (see its README), for the tests of this package. */
final class ToncenterFixtures {
  private ToncenterFixtures() {}

  static byte[] bytes(String name) {
    try (InputStream in = ToncenterFixtures.class.getResourceAsStream("toncenter/" + name)) {
      assertThat(in).as("fixture %s", name).isNotNull();
      return in.readAllBytes();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  static String text(String name) {
    return new String(bytes(name), StandardCharsets.UTF_8);
  }
}
