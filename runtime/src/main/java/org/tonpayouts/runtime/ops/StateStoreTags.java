package org.tonpayouts.runtime.ops;

import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.Tag;
import io.micrometer.core.instrument.config.MeterFilter;
import java.util.ArrayList;
import java.util.List;

/**
 * Gives every Kafka Streams state-store meter the same tag keys. Kafka Streams names the store in
 * a tag whose key says the store's kind ({@code rocksdb-state-id}, {@code rocksdb-window-state-id},
 * {@code in-memory-state-id}, ...), so a process with a key-value store and a window store has two
 * sets of tag keys under one meter name; Prometheus takes one set per name, and the registry refused
 * the other store's meters (they were missing from {@code /metrics}, depending on which store
 * registered first). Here the store is always {@code state.id}; store names are unique in a
 * topology, so the kind is not needed to tell them apart. (Only the key changes, never the number
 * of tags: Micrometer's Kafka binder skips a Kafka metric when a meter of that name has more tags.)
 */
final class StateStoreTags implements MeterFilter {
  static final String PREFIX = "kafka.stream.state.";
  static final String STATE_ID = "state.id";
  private static final String KIND_SUFFIX = ".state.id";

  @Override
  public Meter.Id map(Meter.Id id) {
    if (!id.getName().startsWith(PREFIX)) {
      return id;
    }
    List<Tag> tags = new ArrayList<>();
    boolean renamed = false;
    for (Tag tag : id.getTagsAsIterable()) {
      String key = tag.getKey();
      if (key.endsWith(KIND_SUFFIX) && !key.equals(STATE_ID)) {
        tags.add(Tag.of(STATE_ID, tag.getValue()));
        renamed = true;
      } else {
        tags.add(tag);
      }
    }
    return renamed ? id.replaceTags(tags) : id;
  }
}
