package org.tonpayouts.schemas;

import com.fasterxml.jackson.core.JsonLocation;
import com.fasterxml.jackson.core.JsonPointer;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonMappingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.exc.ValueInstantiationException;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.networknt.schema.JsonSchema;
import com.networknt.schema.JsonSchemaFactory;
import com.networknt.schema.PathType;
import com.networknt.schema.SchemaValidatorsConfig;
import com.networknt.schema.SpecVersion;
import com.networknt.schema.ValidationMessage;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import org.apache.kafka.common.errors.SerializationException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The gate of the payout pipeline: turns the raw bytes of a {@code payout.requests} value into a
 * {@link PayoutRequest} or a human-readable reason to reject it.
 *
 * <p>It checks, in order: that there is a value of at most {@link #MAX_REQUEST_BYTES}, that it is strict UTF-8 ({@link StrictUtf8}: no
 * byte-order mark, no malformed, overlong or surrogate sequences), that it is one well-formed JSON
 * document (no duplicate keys, nothing after it) whose strings are valid Unicode (no unpaired
 * {@code \\uD800}-style escapes, {@link UnpairedSurrogates}), the strict request schema
 * ({@code /schemas/payout.requests.schema.json}, every violation reported with its JSON path),
 * rules a schema cannot express (transferIds unique within the request), and finally that the
 * value maps onto the record (e.g. a 19-digit amount above the 64-bit range).
 *
 * <p>{@link #validate} never throws: every input, however broken, yields a result. Checks that
 * need TON code or deployment settings (addresses, allowed subwallets, key = subwalletId, amount
 * limits, the comment policy) are made downstream. Thread-safe; build it once ({@link #shared()}).
 */
public final class PayoutRequestValidator {

  /** Classpath location of the request schema (kept literal: {@link Topics} depends on this class). */
  public static final String SCHEMA_RESOURCE = "/schemas/payout.requests.schema.json";

  private static final Logger log = LoggerFactory.getLogger(PayoutRequestValidator.class);
  private static final PayoutRequestValidator SHARED = new PayoutRequestValidator();

  /**
   * Largest value validated, in bytes. The largest valid request (four transfers with 1000-character
   * comments written as escaped surrogate pairs) is about 50 KB; anything far larger is refused
   * before parsing, so no value costs more than a few milliseconds of a stream thread.
   */
  public static final int MAX_REQUEST_BYTES = 64 * 1024;

  private final ObjectMapper mapper = Json.mapper();
  private final JsonSchema schema;

  /** Loads and compiles the request schema from the classpath. */
  public PayoutRequestValidator() {
    this.schema = loadSchema(SCHEMA_RESOURCE);
  }

  /** The instance shared by the topic catalog; schema compilation happens once per JVM. */
  public static PayoutRequestValidator shared() {
    return SHARED;
  }

  /**
   * Compiles a schema from the classpath the way the validator does: draft 2020-12, format
   * assertions on (so {@code date-time} is checked), JSON-path locations, English messages, and
   * custom messages from the schema's {@code message} keyword.
   */
  public static JsonSchema loadSchema(String classpathResource) {
    SchemaValidatorsConfig config = SchemaValidatorsConfig.builder()
        .pathType(PathType.JSON_PATH)
        .formatAssertionsEnabled(true)
        .errorMessageKeyword("message")
        // One language on every host: reasons are read by producer teams and matched in tests.
        .locale(Locale.ENGLISH)
        .build();
    JsonSchemaFactory factory = JsonSchemaFactory.getInstance(SpecVersion.VersionFlag.V202012);
    try (InputStream in = PayoutRequestValidator.class.getResourceAsStream(classpathResource)) {
      if (in == null) {
        throw new IllegalStateException("schema not found on the classpath: " + classpathResource);
      }
      JsonSchema compiled = factory.getSchema(in, config);
      compiled.initializeValidators();
      return compiled;
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read schema " + classpathResource, e);
    }
  }

  /**
   * Validates one raw record value. Never throws.
   *
   * @param rawValue the value bytes as read from Kafka, possibly null or not JSON at all
   */
  public ValidationResult validate(byte[] rawValue) {
    try {
      return check(rawValue);
    } catch (RuntimeException e) {
      // Not expected: every known failure is handled below. Refusing the input keeps the
      // pipeline moving (invariant 5) and the log line lets us add the missing case.
      log.warn("event=request_validation_crashed bytes={} error={}", rawValue == null ? -1 : rawValue.length, e.toString(), e);
      return invalid("$: could not be validated (" + e.getClass().getSimpleName() + ")");
    }
  }

  /**
   * A serde for {@code payout.requests} whose deserializer validates: invalid values (null
   * included) throw a {@link SerializationException} whose message is {@link ValidationResult#reason()}.
   */
  public JsonSerde<PayoutRequest> serde() {
    return JsonSerde.withReader(PayoutRequest.class, data -> {
      ValidationResult result = validate(data);
      if (result instanceof ValidationResult.Invalid invalid) {
        throw new SerializationException("invalid payout request: " + invalid.reason());
      }
      return result.request();
    });
  }

  private ValidationResult check(byte[] rawValue) {
    if (rawValue == null) {
      return invalid("$: value is null (a tombstone); expected a JSON object");
    }
    if (rawValue.length > MAX_REQUEST_BYTES) {
      return invalid("$: value is " + rawValue.length + " bytes; a payout request is at most " + MAX_REQUEST_BYTES
          + " bytes");
    }
    // Decode first and parse the text, never the bytes: Jackson would otherwise guess the
    // encoding (UTF-16 and UTF-32 included) and let a request the intake policy calls invalid be paid.
    String text;
    StrictUtf8.Result decoded = StrictUtf8.decode(rawValue);
    if (decoded instanceof StrictUtf8.Malformed malformed) {
      return invalid("$: not UTF-8 " + malformed.describe() + "; requests must be UTF-8 JSON");
    }
    text = ((StrictUtf8.Text) decoded).text();
    JsonNode node;
    try {
      node = mapper.readTree(text);
    } catch (JsonProcessingException e) {
      return invalid("$: not valid JSON: " + describe(e));
    }
    if (node == null || node.isMissingNode()) {
      return invalid("$: value is empty; expected a JSON object");
    }

    List<String> problems = UnpairedSurrogates.find(node);
    if (!problems.isEmpty()) {
      return invalid(problems);
    }
    Set<String> schemaProblems = new LinkedHashSet<>();
    JsonNode transfers = node.path("transfers");
    if (transfers.isArray() && transfers.size() > PayoutRequest.MAX_TRANSFERS) {
      // Validate only the first few items: 20,000 empty transfers would otherwise cost half a second
      // and 80,000 problems that all say the same thing.
      schemaProblems.add("$.transfers: must have at most " + PayoutRequest.MAX_TRANSFERS + " items but found "
          + transfers.size());
      ObjectNode shortened = mapper.createObjectNode();
      shortened.setAll((ObjectNode) node);
      ArrayNode firstItems = shortened.putArray("transfers");
      for (int i = 0; i < PayoutRequest.MAX_TRANSFERS; i++) {
        firstItems.add(transfers.get(i));
      }
      node = shortened;
    }
    for (ValidationMessage message : schema.validate(node)) {
      schemaProblems.add(withPath(message));
    }
    if (schemaProblems.isEmpty()) {
      schemaProblems.addAll(duplicateTransferIds(node));
    }
    if (!schemaProblems.isEmpty()) {
      return invalid(schemaProblems);
    }

    try {
      return new ValidationResult.Valid(mapper.treeToValue(withJettonAmountsUnattached(node), PayoutRequest.class));
    } catch (JsonMappingException e) {
      return invalid(mappingProblem(node, e));
    } catch (JsonProcessingException | IllegalArgumentException e) {
      return invalid("$: " + e.getMessage());
    }
  }

  /**
   * The request with {@code "amountNano": "0"} in each jetton transfer, which the schema requires
   * to leave it out: the record's amount is the TON the message carries, which intake attaches from
   * the jetton's configuration (0 until then), and the strict reader refuses an absent amount.
   */
  private JsonNode withJettonAmountsUnattached(JsonNode node) {
    JsonNode transfers = node.path("transfers");
    boolean anyJetton = false;
    for (JsonNode t : transfers) {
      anyJetton |= t.has("jetton");
    }
    if (!anyJetton) {
      return node;
    }
    ObjectNode copy = node.deepCopy();
    for (JsonNode t : copy.path("transfers")) {
      if (t.has("jetton")) {
        ((ObjectNode) t).put("amountNano", "0");
      }
    }
    return copy;
  }

  /**
   * The schema library's message, always starting with the JSON path; custom messages from the
   * schema's {@code message} keyword come without it.
   */
  private static String withPath(ValidationMessage message) {
    String location = message.getInstanceLocation().toString();
    String text = message.getMessage();
    return text.startsWith(location + ": ") ? text : location + ": " + text;
  }

  /** Problems for transferIds seen twice; called only on schema-valid requests. */
  private static List<String> duplicateTransferIds(JsonNode request) {
    List<String> problems = new ArrayList<>();
    Map<String, Integer> firstIndex = new HashMap<>();
    JsonNode transfers = request.path("transfers");
    for (int i = 0; i < transfers.size(); i++) {
      String id = transfers.get(i).path("transferId").asText();
      Integer first = firstIndex.putIfAbsent(id, i);
      if (first != null) {
        problems.add("$.transfers[" + i + "].transferId: duplicate transferId '" + id
            + "' (already used by $.transfers[" + first + "]); transferIds must be unique within a request");
      }
    }
    return problems;
  }

  /** Jackson's parse error in plain words, with line and column. */
  private static String describe(JsonProcessingException e) {
    String message = e.getOriginalMessage();
    if (message == null) {
      message = e.getClass().getSimpleName();
    } else if (message.startsWith("Trailing token")) {
      message = "unexpected content after the JSON value";
    }
    int newline = message.indexOf('\n');
    if (newline >= 0) {
      message = message.substring(0, newline);
    }
    message = message.replace(
        "[Source: REDACTED (`StreamReadFeature.INCLUDE_SOURCE_IN_LOCATION` disabled); ", "[");
    JsonLocation location = e.getLocation();
    if (location != null && location.getLineNr() > 0) {
      message += " (line " + location.getLineNr() + ", column " + location.getColumnNr() + ")";
    }
    return message;
  }

  /**
   * A schema-valid value the record refused, e.g. a 19-digit amount above the 64-bit range or
   * {@code 1.0} where an integer belongs (JSON Schema counts 1.0 as an integer; we do not, so a
   * producer's float never becomes money).
   */
  private static String mappingProblem(JsonNode root, JsonMappingException e) {
    String path = path(e);
    JsonNode value = root.at(pointer(e));
    if (value.isFloatingPointNumber()) {
      return path + ": " + value + " is not an integer: write integers without fraction or exponent";
    }
    Throwable cause = e instanceof ValueInstantiationException && e.getCause() != null ? e.getCause() : e;
    String message = cause instanceof JsonProcessingException jpe ? jpe.getOriginalMessage() : cause.getMessage();
    return path + ": " + (message == null ? cause.getClass().getSimpleName() : message);
  }

  /** {@code $.transfers[0].amountNano} for the field Jackson failed on. */
  private static String path(JsonMappingException e) {
    StringBuilder path = new StringBuilder("$");
    for (JsonMappingException.Reference ref : e.getPath()) {
      if (ref.getFieldName() != null) {
        path.append('.').append(ref.getFieldName());
      } else if (ref.getIndex() >= 0) {
        path.append('[').append(ref.getIndex()).append(']');
      }
    }
    return path.toString();
  }

  /** The same location as a JSON Pointer, to look the offending value up in the tree. */
  private static JsonPointer pointer(JsonMappingException e) {
    JsonPointer pointer = JsonPointer.empty();
    for (JsonMappingException.Reference ref : e.getPath()) {
      if (ref.getFieldName() != null) {
        pointer = pointer.appendProperty(ref.getFieldName());
      } else if (ref.getIndex() >= 0) {
        pointer = pointer.appendIndex(ref.getIndex());
      }
    }
    return pointer;
  }

  private static ValidationResult invalid(String problem) {
    return invalid(List.of(problem));
  }

  /**
   * Every problem is made safe to show and capped ({@link Reasons#clean}), so a hostile payload
   * cannot make a reason unreadable or huge; {@link ValidationResult#reason()} lists the first few.
   */
  private static ValidationResult invalid(Collection<String> problems) {
    List<String> clean = new ArrayList<>(problems.size());
    for (String problem : problems) {
      clean.add(Reasons.clean(problem));
    }
    return new ValidationResult.Invalid(clean);
  }
}
