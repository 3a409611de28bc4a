package org.tonpayouts.local;

import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.testcontainers.junit.jupiter.Container;
import org.testcontainers.junit.jupiter.Testcontainers;
import org.testcontainers.kafka.KafkaContainer;
import org.tonpayouts.embedded.SharedTestInfrastructure;

/**
 * The same end-to-end scenario on Kafka in a container (Testcontainers); skipped where there is no
 * Docker engine, as on the project's build machines.
 */
@Testcontainers(disabledWithoutDocker = true)
class PayoutPipelineTestcontainersTest {
  @Container
  static final KafkaContainer KAFKA = new KafkaContainer("apache/kafka:4.0.0");

  @TempDir
  Path tmp;

  @Test
  void shouldSettleEveryTonAndJettonTransferOnceWithConsecutiveSeqnosAndExactBalances() throws Exception {
    new PayoutScenario(KAFKA.getBootstrapServers(),
        SharedTestInfrastructure.databaseName(PayoutPipelineTestcontainersTest.class), tmp).jettons().runAndVerify();
  }
}
