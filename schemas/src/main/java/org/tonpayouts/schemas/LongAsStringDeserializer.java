package org.tonpayouts.schemas;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.databind.BeanProperty;
import com.fasterxml.jackson.databind.DeserializationContext;
import com.fasterxml.jackson.databind.JsonDeserializer;
import com.fasterxml.jackson.databind.JsonMappingException;
import com.fasterxml.jackson.databind.deser.ContextualDeserializer;
import com.fasterxml.jackson.databind.deser.std.StdScalarDeserializer;
import java.io.IOException;

/**
 * Reads a 64-bit integer from a JSON string of decimal digits or from a JSON integer, exactly:
 * no fractions, no exponents, no silent overflow, and (for a primitive {@code long}) no null.
 * Used through {@link JsonLongAsString}.
 */
public final class LongAsStringDeserializer extends StdScalarDeserializer<Long>
    implements ContextualDeserializer {

  private static final long serialVersionUID = 1L;
  /** Enough digits for Long.MIN_VALUE; anything longer cannot fit and is not parsed further. */
  private static final int MAX_CHARS = 20;

  private final boolean primitive;

  public LongAsStringDeserializer() {
    this(false);
  }

  private LongAsStringDeserializer(boolean primitive) {
    super(Long.class);
    this.primitive = primitive;
  }

  @Override
  public JsonDeserializer<?> createContextual(DeserializationContext ctxt, BeanProperty property) {
    boolean isPrimitive = property != null && property.getType().isPrimitive();
    return isPrimitive == primitive ? this : new LongAsStringDeserializer(isPrimitive);
  }

  @Override
  public Long deserialize(JsonParser p, DeserializationContext ctxt) throws IOException {
    JsonToken token = p.currentToken();
    if (token == JsonToken.VALUE_NUMBER_INT) {
      if (p.getNumberType() == JsonParser.NumberType.BIG_INTEGER) {
        return (Long) ctxt.reportInputMismatch(this,
            "%s is out of range for a 64-bit integer (max %d)", abbreviate(p.getText()), Long.MAX_VALUE);
      }
      return p.getLongValue();
    }
    if (token == JsonToken.VALUE_STRING) {
      return parse(p.getText(), ctxt);
    }
    if (token == JsonToken.VALUE_NUMBER_FLOAT) {
      return (Long) ctxt.reportInputMismatch(this,
          "%s is not an integer: write integers without fraction or exponent", p.getText());
    }
    return (Long) ctxt.handleUnexpectedToken(Long.class, p);
  }

  private Long parse(String text, DeserializationContext ctxt) throws IOException {
    if (!isDecimalInteger(text)) {
      return (Long) ctxt.reportInputMismatch(this,
          "\"%s\" is not a string of decimal digits", abbreviate(text));
    }
    try {
      return Long.parseLong(text);
    } catch (NumberFormatException e) {
      return (Long) ctxt.reportInputMismatch(this,
          "\"%s\" is out of range for a 64-bit integer (max %d)", abbreviate(text), Long.MAX_VALUE);
    }
  }

  private static boolean isDecimalInteger(String text) {
    int start = text.startsWith("-") ? 1 : 0;
    if (text.length() == start) {
      return false;
    }
    for (int i = start; i < text.length(); i++) {
      char c = text.charAt(i);
      if (c < '0' || c > '9') {
        return false;
      }
    }
    return true;
  }

  private static String abbreviate(String text) {
    return text.length() <= MAX_CHARS + 10 ? text : text.substring(0, MAX_CHARS) + "...";
  }

  @Override
  public Long getNullValue(DeserializationContext ctxt) throws JsonMappingException {
    if (primitive) {
      return (Long) ctxt.reportInputMismatch(this, "must not be null");
    }
    return null;
  }

  @Override
  public Object getAbsentValue(DeserializationContext ctxt) throws JsonMappingException {
    if (primitive) {
      return ctxt.reportInputMismatch(this, "is required");
    }
    return null;
  }
}
