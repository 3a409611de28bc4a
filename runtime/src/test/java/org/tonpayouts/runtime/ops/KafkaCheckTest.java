package org.tonpayouts.runtime.ops;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.tonpayouts.embedded.SharedTestInfrastructure;
import org.tonpayouts.runtime.topics.AdminClients;

class KafkaCheckTest {
  @Test
  void shouldBeUpWhenTheClusterAnswers() {
    CheckResult result = new KafkaCheck(SharedTestInfrastructure.kafka().admin(), Duration.ofSeconds(5)).check();

    assertThat(result).isEqualTo(CheckResult.up("1 broker"));
  }

  @Test
  void shouldBeDownShowingTheKindOfFailureButNoAddress() {
    try (AdminClients.Session nowhere = AdminClients.open("127.0.0.1:1", "test-health")) {
      CheckResult result = new KafkaCheck(nowhere.admin(), Duration.ofMillis(500)).check();

      assertThat(result.up()).isFalse();
      assertThat(result.detail()).containsIgnoringCase("timeout").doesNotContain("127.0.0.1");
    }
  }
}
