package org.tonpayouts.local.stack;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;
import org.junit.jupiter.api.Test;

class ChildSpecTest {
  @Test
  void theLocalStackCompilesWithC1OnlyAndCollectsInParallelUnlessTheEnvironmentSaysOtherwise() {
    assertThat(ChildSpec.javaOptions(Map.of())).containsExactly("-XX:TieredStopAtLevel=1", "-XX:+UseParallelGC");
    assertThat(ChildSpec.javaOptions(Map.of(ChildSpec.JAVA_OPTS_ENV, ""))).isEmpty();
    assertThat(ChildSpec.javaOptions(Map.of(ChildSpec.JAVA_OPTS_ENV, "  -Xss1m   -XX:+UseSerialGC ")))
        .containsExactly("-Xss1m", "-XX:+UseSerialGC");
  }
}
