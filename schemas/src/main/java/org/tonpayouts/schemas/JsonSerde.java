package org.tonpayouts.schemas;

import com.fasterxml.jackson.databind.ObjectReader;
import com.fasterxml.jackson.databind.ObjectWriter;
import java.util.Map;
import java.util.Objects;
import org.apache.kafka.common.errors.SerializationException;
import org.apache.kafka.common.serialization.Deserializer;
import org.apache.kafka.common.serialization.Serde;
import org.apache.kafka.common.serialization.Serializer;

/**
 * The value serde of every payout topic: JSON through {@link Json#mapper()}.
 *
 * <p>One object is the {@link Serde}, its {@link Serializer} and its {@link Deserializer}; it is
 * stateless and thread-safe, so the constants in {@link Topics} are shared by all clients.
 *
 * <p>Failures in either direction throw Kafka's {@link SerializationException} with the cause
 * kept, which is what Kafka Streams' deserialization and production exception handlers expect.
 * A null value (tombstone) maps to null unless a custom {@link ValueReader} decides otherwise.
 *
 * @param <T> the event type
 */
public final class JsonSerde<T> implements Serde<T>, Serializer<T>, Deserializer<T> {

  /** Turns a value's bytes (possibly null) into an event; any exception becomes a {@link SerializationException}. */
  @FunctionalInterface
  public interface ValueReader<T> {
    T read(byte[] data) throws Exception;
  }

  private final Class<T> type;
  private final ObjectWriter writer;
  private final ValueReader<T> reader;
  private final int maxSerializedBytes;

  private JsonSerde(Class<T> type, ValueReader<T> reader, int maxSerializedBytes) {
    this.type = Objects.requireNonNull(type, "type");
    this.writer = Json.mapper().writerFor(type);
    this.reader = Objects.requireNonNull(reader, "reader");
    if (maxSerializedBytes < 1) {
      throw new IllegalArgumentException("maxSerializedBytes must be positive, got " + maxSerializedBytes);
    }
    this.maxSerializedBytes = maxSerializedBytes;
  }

  /** A serde reading and writing {@code type} with the project's mapper. */
  public static <T> JsonSerde<T> of(Class<T> type) {
    ObjectReader objectReader = Json.mapper().readerFor(type);
    return new JsonSerde<>(type, data -> data == null ? null : objectReader.readValue(data), Integer.MAX_VALUE);
  }

  /**
   * A serde that writes {@code type} with the project's mapper and reads with {@code reader}
   * (e.g. to validate against a schema first). The reader also receives null values.
   */
  public static <T> JsonSerde<T> withReader(Class<T> type, ValueReader<T> reader) {
    return new JsonSerde<>(type, reader, Integer.MAX_VALUE);
  }

  /**
   * This serde, but serializing refuses values longer than {@code maxBytes} with a
   * {@link SerializationException}. In Kafka Streams that failure reaches the production exception
   * handler before the record reaches the producer, where a record the broker refuses would abort
   * the exactly-once transaction and stop the task.
   */
  public JsonSerde<T> limitedTo(int maxBytes) {
    return new JsonSerde<>(type, reader, maxBytes);
  }

  /** The longest value {@link #serialize} writes, in bytes. */
  public int maxSerializedBytes() {
    return maxSerializedBytes;
  }

  /** The event type this serde handles. */
  public Class<T> type() {
    return type;
  }

  @Override
  public byte[] serialize(String topic, T data) {
    if (data == null) {
      return null;
    }
    byte[] bytes;
    try {
      bytes = writer.writeValueAsBytes(data);
    } catch (Exception e) {
      throw new SerializationException(
          "Could not serialize " + type.getSimpleName() + " for topic " + topic + ": " + e.getMessage(), e);
    }
    if (bytes.length > maxSerializedBytes) {
      throw new SerializationException("Refusing to write a " + type.getSimpleName() + " of " + bytes.length
          + " bytes to topic " + topic + ": the limit is " + maxSerializedBytes + " bytes");
    }
    return bytes;
  }

  @Override
  public T deserialize(String topic, byte[] data) {
    try {
      return reader.read(data);
    } catch (SerializationException e) {
      throw e;
    } catch (Exception e) {
      throw new SerializationException(
          "Could not deserialize " + type.getSimpleName() + " from topic " + topic + ": " + e.getMessage(), e);
    }
  }

  @Override
  public Serializer<T> serializer() {
    return this;
  }

  @Override
  public Deserializer<T> deserializer() {
    return this;
  }

  /** Nothing to configure: the mapper is fixed so every client reads and writes the same JSON. */
  @Override
  public void configure(Map<String, ?> configs, boolean isKey) {
  }

  @Override
  public void close() {
  }

  @Override
  public String toString() {
    return "JsonSerde[" + type.getSimpleName() + "]";
  }
}
