package org.tonpayouts.runtime.store;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.concurrent.atomic.AtomicInteger;
import org.apache.kafka.common.serialization.Deserializer;
import org.apache.kafka.common.serialization.Serde;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.streams.processor.api.MockProcessorContext;
import org.apache.kafka.streams.state.KeyValueStore;
import org.apache.kafka.streams.state.Stores;
import org.junit.jupiter.api.Test;

class StoreWritesTest {
  @Test
  void eraseDeletesWithoutReadingTheOldValueBack() {
    AtomicInteger reads = new AtomicInteger();
    Deserializer<String> counting = (topic, data) -> {
      reads.incrementAndGet();
      return data == null ? null : new String(data, java.nio.charset.StandardCharsets.UTF_8);
    };
    Serde<String> values = Serdes.serdeFrom(Serdes.String().serializer(), counting);
    KeyValueStore<String, String> store = Stores.keyValueStoreBuilder(Stores.inMemoryKeyValueStore("s"),
        Serdes.String(), values).withLoggingDisabled().build();
    store.init(new MockProcessorContext<String, String>().getStateStoreContext(), store);
    store.put("a", "first");
    store.put("b", "second");

    StoreWrites.erase(store, "a");
    StoreWrites.erase(store, "absent");

    assertThat(reads).hasValue(0);
    assertThat(store.get("a")).isNull();
    assertThat(store.get("b")).isEqualTo("second");
    assertThat(store.approximateNumEntries()).isEqualTo(1);
    int before = reads.get();
    assertThat(store.delete("b")).isEqualTo("second"); // what erase avoids: delete hands back the old value
    assertThat(reads.get()).isEqualTo(before + 1);
  }
}
