package org.tonpayouts.runtime.store;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class SortableKeysTest {
  @Test
  void shouldSortAsTheNumbersDo() {
    List<Long> numbers = List.of(0L, 7L, 10L, 99L, 1_000L, 1_763_890_000_123_456_789L, Long.MAX_VALUE);
    List<String> keys = new ArrayList<>(numbers.stream().map(SortableKeys::padded).toList());
    keys.sort(null);

    assertThat(keys).containsExactlyElementsOf(numbers.stream().map(SortableKeys::padded).toList());
    assertThat(keys).allMatch(k -> k.length() == 19);
    assertThat(SortableKeys.padded(42)).isEqualTo(String.format("%019d", 42));
  }

  @Test
  void shouldRefuseNegativeNumbers() {
    assertThatThrownBy(() -> SortableKeys.padded(-1)).isInstanceOf(IllegalArgumentException.class);
  }
}
