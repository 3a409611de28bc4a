package org.tonpayouts.local;

import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.tonpayouts.embedded.SharedTestInfrastructure;

/** The end-to-end scenario on the in-process KRaft broker (always runs: no Docker needed). */
class PayoutPipelineTest {
  @TempDir
  Path tmp;

  @Test
  void shouldSettleEveryTransferOnceWithConsecutiveSeqnosAndExactBalances() throws Exception {
    new PayoutScenario(SharedTestInfrastructure.kafka().bootstrapServers(),
        SharedTestInfrastructure.databaseName(PayoutPipelineTest.class), tmp).runAndVerify();
  }
}
