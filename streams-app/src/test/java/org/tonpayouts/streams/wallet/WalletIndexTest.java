package org.tonpayouts.streams.wallet;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.tonpayouts.runtime.wakeup.TransactionCommits;

/** The processor's in-memory scheduling of a task's wallets. */
class WalletIndexTest {
  private static final Instant NOW = Instant.parse("2026-11-23T12:00:00Z");

  private final WalletIndex index = new WalletIndex();

  private static WalletHead withWork() {
    return WalletHead.empty(1).enqueued();
  }

  private static WalletHead awaiting(Instant recheckAt) {
    CurrentTransfer sent = new CurrentTransfer(3, List.of("aa".repeat(32)), 1, NOW.getEpochSecond() + 60, NOW, true,
        recheckAt);
    return withWork().submitted(sent);
  }

  @Test
  void shouldHandOverAReadyWalletOnceUntilItIsReturned() {
    index.track("w1", withWork());
    index.track("idle", WalletHead.empty(2));

    assertThat(index.readyToHandOver(NOW)).containsExactly("w1");
    index.handedOver("w1");
    assertThat(index.readyToHandOver(NOW)).as("its round is in flight").isEmpty();
    index.returned("w1");
    assertThat(index.readyToHandOver(NOW)).containsExactly("w1");
  }

  @Test
  void shouldKeepADeferredWalletBackUntilItsTime() {
    index.track("w1", withWork());
    index.defer("w1", NOW.plusSeconds(1));

    assertThat(index.hasDeferred()).isTrue();
    assertThat(index.readyToHandOver(NOW)).isEmpty();
    assertThat(index.readyToHandOver(NOW.plusSeconds(1))).containsExactly("w1");
  }

  @Test
  void shouldHoldASettledWalletBackUntilItsOutcomeIsCommittedOrTheLimitPassed() {
    boolean[] committed = {false};
    index.track("w1", withWork());
    index.track("w2", withWork());
    index.holdForCommit("w1", new TransactionCommits.Wait(() -> committed[0], NOW.plusSeconds(1)));
    index.holdForCommit("w2", new TransactionCommits.Wait(() -> false, NOW.plusSeconds(1)));

    assertThat(index.hasDeferred()).as("someone must look again soon").isTrue();
    assertThat(index.readyToHandOver(NOW)).isEmpty();
    committed[0] = true;
    assertThat(index.readyToHandOver(NOW)).containsExactly("w1");
    index.handedOver("w1");
    assertThat(index.readyToHandOver(NOW.plusSeconds(1))).as("a commit that never comes holds for the limit only")
        .containsExactly("w2");
    assertThat(index.hasDeferred()).isFalse();
  }

  @Test
  void shouldNotHoldAWalletWithNothingToIssue() {
    index.track("idle", WalletHead.empty(2));
    index.holdForCommit("idle", new TransactionCommits.Wait(() -> false, NOW.plusSeconds(1)));

    assertThat(index.hasDeferred()).as("an idle instance schedules nothing").isFalse();
  }

  @Test
  void shouldForgetTheHoldOfAWalletThatIsNoLongerReady() {
    index.track("w1", withWork());
    index.holdForCommit("w1", new TransactionCommits.Wait(() -> false, NOW.plusSeconds(1)));
    index.track("w1", awaiting(NOW.plusSeconds(5)));

    assertThat(index.hasDeferred()).isFalse();
  }

  @Test
  void shouldReportAWalletAwaitingAVerdictAsOverdueOnceAndNotWhileItIsRechecked() {
    index.track("w1", awaiting(NOW.plusSeconds(5)));

    assertThat(index.readyToHandOver(NOW.plusSeconds(10))).as("a message that may still apply").isEmpty();
    assertThat(index.hasAwaiting()).isTrue();
    assertThat(index.overdue(NOW)).isEmpty();
    assertThat(index.overdue(NOW.plusSeconds(5))).containsExactly("w1");
    assertThat(index.startRecheck("w1")).isTrue();
    assertThat(index.startRecheck("w1")).as("one re-check at a time").isFalse();
    assertThat(index.overdue(NOW.plusSeconds(6))).isEmpty();
    index.endRecheck("w1");
    assertThat(index.overdue(NOW.plusSeconds(6))).containsExactly("w1");
  }

  @Test
  void shouldForgetAWalletThatHasNothingLeftToDo() {
    index.track("w1", awaiting(NOW));
    index.defer("w1", NOW.plusSeconds(1));

    index.track("w1", WalletHead.empty(1));

    assertThat(index.hasAwaiting()).isFalse();
    assertThat(index.hasDeferred()).isFalse();
    assertThat(index.readyToHandOver(NOW.plusSeconds(5))).isEmpty();
  }
}
