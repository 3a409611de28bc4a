package org.tonpayouts.poller;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.tonpayouts.devnet.Devnet;
import org.tonpayouts.ton.api.TonApiClient;
import org.tonpayouts.ton.api.TonApiConfig;

/**
 * How often the poller asks for the masterchain, against devnet with blocks made by the test at
 * chosen moments of a 50 ms poll (the reads' times are given, not taken).
 */
class MasterchainWatchTest {
  private static final Duration POLL = Duration.ofMillis(50);

  private Devnet devnet;
  private TonApiClient api;
  private PollerMetrics metrics;
  private MasterchainWatch watch;

  @BeforeEach
  void setUp() {
    devnet = Devnet.builder().blockInterval(Duration.ZERO).start();
    api = new TonApiClient(TonApiConfig.of(devnet.baseUrl()).withRequestsPerSecond(10_000));
    metrics = PollerMetrics.inMemory();
    watch = new MasterchainWatch(api, POLL, metrics);
  }

  @AfterEach
  void tearDown() {
    api.close();
    devnet.close();
  }

  @Test
  void readsSeldomRightAfterABlockOnceItKnowsTheInterval() {
    long t = followBlocksEvery(400, 0);
    long calls = calls();

    // the next block is not due for a while: the reads right after a change are answered from memory
    long seqno = read(t + 50);
    read(t + 100);
    read(t + 150);

    assertThat(seqno).isEqualTo(devnet.masterchainSeqno());
    assertThat(calls()).isEqualTo(calls);
    assertThat(read(t + 400)).as("read again once the next block is due").isEqualTo(devnet.masterchainSeqno());
    assertThat(calls()).isGreaterThan(calls);
  }

  @Test
  void aChangeSeenAfterAPauseSaysNothingAboutWhenTheBlockCame() {
    long t = followBlocksEvery(400, 0);
    // nothing watched for ten seconds: no reads; blocks keep coming
    devnet.produceBlock();
    devnet.produceBlock();
    long paused = t + 10_000;
    assertThat(read(paused)).isEqualTo(devnet.masterchainSeqno());
    long calls = calls();

    // the next block may come at any moment: the following reads ask the node
    devnet.produceBlock();
    assertThat(read(paused + 50)).isEqualTo(devnet.masterchainSeqno());
    assertThat(calls()).isEqualTo(calls + 1);

    // and once a change is seen right after a read, the quiet spell is back
    read(paused + 100);
    long quiet = calls();
    read(paused + 150);
    assertThat(calls()).isEqualTo(quiet);
  }

  @Test
  void sharesOneReadBetweenTasksPunctuatedTogether() {
    long first = read(1_000);
    read(1_000); // another task, same punctuation
    read(1_024);
    assertThat(calls()).isEqualTo(1);

    devnet.produceBlock();
    assertThat(read(1_025)).as("half a poll interval later: a read of its own").isEqualTo(first + 1);
    assertThat(calls()).isEqualTo(2);
  }

  /**
   * Reads every poll interval from {@code start} while a block comes every {@code blockMs}, for
   * five blocks, so the watch has learned the interval; returns the time of the read that saw the last.
   */
  private long followBlocksEvery(long blockMs, long start) {
    long now = start;
    read(now);
    long lastChange = now;
    for (int block = 0; block < 5; block++) {
      long due = lastChange + blockMs;
      for (now += POLL.toMillis(); now < due; now += POLL.toMillis()) {
        read(now);
      }
      devnet.produceBlock();
      assertThat(read(now)).isEqualTo(devnet.masterchainSeqno());
      lastChange = now;
    }
    return now;
  }

  private long read(long atMs) {
    return watch.read(atMs).join().seqno();
  }

  private long calls() {
    return (long) metrics.apiCalls("getMasterchainInfo");
  }
}
