package org.tonpayouts.schemas;

import java.util.Objects;
import org.apache.kafka.common.serialization.Serde;

/**
 * One Kafka topic of the payout pipeline with the serdes of its keys and values, so producers,
 * the topology and tests cannot pair a topic with the wrong format. Constants live in {@link Topics}.
 *
 * @param name the topic name
 * @param keySerde serde of the record keys
 * @param valueSerde serde of the record values
 */
public record Topic<K, V>(String name, Serde<K> keySerde, Serde<V> valueSerde) {

  public Topic {
    Objects.requireNonNull(name, "name");
    Objects.requireNonNull(keySerde, "keySerde");
    Objects.requireNonNull(valueSerde, "valueSerde");
  }

  /**
   * Classpath location of the JSON Schema (draft 2020-12) documenting this topic's values, e.g.
   * {@code /schemas/payout.requests.schema.json}.
   */
  public String schemaResource() {
    return "/schemas/" + name + ".schema.json";
  }

  @Override
  public String toString() {
    return name;
  }
}
