package org.tonpayouts.local;

import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.tonpayouts.embedded.SharedTestInfrastructure;

/**
 * The end-to-end scenario on the in-process KRaft broker (always runs: no Docker needed): TON and
 * jetton (USDT) payouts, and a jetton the receiver's locked jetton wallet refuses.
 */
class PayoutPipelineTest {
  @TempDir
  Path tmp;

  @Test
  void shouldSettleEveryTonAndJettonTransferOnceWithConsecutiveSeqnosAndExactBalances() throws Exception {
    new PayoutScenario(SharedTestInfrastructure.kafka().bootstrapServers(),
        SharedTestInfrastructure.databaseName(PayoutPipelineTest.class), tmp).jettons().runAndVerify();
  }
}
