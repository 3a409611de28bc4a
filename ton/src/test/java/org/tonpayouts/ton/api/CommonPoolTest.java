package org.tonpayouts.ton.api;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class CommonPoolTest {

  @Test
  void shouldRaiseTheParallelismWhereCompletableFutureWouldStartAThreadPerTask() {
    assertThat(CommonPool.parallelismToSet(null, 1)).hasValue(2);
    assertThat(CommonPool.parallelismToSet(null, 2)).hasValue(2);
  }

  @Test
  void shouldLeaveBiggerMachinesAndAnExplicitSettingAlone() {
    assertThat(CommonPool.parallelismToSet(null, 3)).isEmpty();
    assertThat(CommonPool.parallelismToSet(null, 16)).isEmpty();
    assertThat(CommonPool.parallelismToSet("1", 2)).isEmpty();
  }
}
