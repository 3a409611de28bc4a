package org.tonpayouts.schemas;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.core.StreamReadFeature;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.json.JsonMapper;
import com.fasterxml.jackson.datatype.jsr310.JavaTimeModule;

/**
 * The one Jackson configuration for every payout topic: what {@link JsonSerde} writes and reads.
 *
 * <p>Choices and why:
 * <ul>
 *   <li>Instants are ISO-8601 strings, readable in Kafka UI and unambiguous across languages.</li>
 *   <li>Null fields are omitted, so an event shows only what is known.</li>
 *   <li>Duplicate keys and trailing content are errors: a payload two parsers could read
 *       differently must not move money.</li>
 *   <li>{@code null} or a fraction for an integer field is an error rather than a silent 0 or a
 *       truncation.</li>
 *   <li>Unknown properties are ignored when reading events (a tolerant reader lets a newer producer
 *       add an optional field during a rolling upgrade). Payout requests from other teams are held
 *       to their strict schema by {@link PayoutRequestValidator} instead.</li>
 * </ul>
 */
public final class Json {

  private static final ObjectMapper MAPPER = newMapper();

  private Json() {
  }

  /**
   * The shared, thread-safe mapper. Do not reconfigure it (every serde uses it); call
   * {@link #newMapper()} for a private copy to customise.
   */
  public static ObjectMapper mapper() {
    return MAPPER;
  }

  /** A fresh mapper with the project's configuration. */
  public static ObjectMapper newMapper() {
    return JsonMapper.builder()
        .addModule(new JavaTimeModule())
        .disable(SerializationFeature.WRITE_DATES_AS_TIMESTAMPS)
        .disable(SerializationFeature.WRITE_DURATIONS_AS_TIMESTAMPS)
        .defaultPropertyInclusion(
            JsonInclude.Value.construct(JsonInclude.Include.NON_NULL, JsonInclude.Include.NON_NULL))
        .enable(StreamReadFeature.STRICT_DUPLICATE_DETECTION)
        .enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS)
        .enable(DeserializationFeature.FAIL_ON_NULL_FOR_PRIMITIVES)
        .disable(DeserializationFeature.ACCEPT_FLOAT_AS_INT)
        .disable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES)
        .build();
  }
}
