package org.tonpayouts.runtime.ops;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.tonpayouts.embedded.SharedTestInfrastructure;
import org.tonpayouts.runtime.topics.AdminClients;

class KafkaCheckTest {
  @Test
  void shouldBeUpWhenTheClusterAnswers() {
    String servers = SharedTestInfrastructure.kafka().bootstrapServers();

    CheckResult result = new KafkaCheck(SharedTestInfrastructure.kafka().admin(), servers, Duration.ofSeconds(5)).check();

    assertThat(result).isEqualTo(CheckResult.up(servers + ": 1 broker"));
  }

  @Test
  void shouldBeDownNamingTheServersWhenNothingAnswers() {
    try (AdminClients.Session nowhere = AdminClients.open("127.0.0.1:1", "test-health")) {
      CheckResult result = new KafkaCheck(nowhere.admin(), "127.0.0.1:1", Duration.ofMillis(500)).check();

      assertThat(result.up()).isFalse();
      assertThat(result.detail()).startsWith("127.0.0.1:1: ").containsIgnoringCase("timeout");
    }
  }
}
