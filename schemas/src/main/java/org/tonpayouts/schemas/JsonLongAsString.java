package org.tonpayouts.schemas;

import com.fasterxml.jackson.annotation.JacksonAnnotationsInside;
import com.fasterxml.jackson.databind.annotation.JsonDeserialize;
import com.fasterxml.jackson.databind.annotation.JsonSerialize;
import com.fasterxml.jackson.databind.ser.std.ToStringSerializer;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Marks a {@code long}/{@code Long} (nanotons, logical times) that is written as a JSON string
 * and read from a string or a number.
 *
 * <p>Why: JavaScript consumers (Kafka UI, dashboards) parse JSON numbers as doubles and silently
 * lose precision above 2^53; toncenter writes these values as strings for the same reason.
 */
@Retention(RetentionPolicy.RUNTIME)
@Target({ElementType.FIELD, ElementType.METHOD, ElementType.PARAMETER})
@JacksonAnnotationsInside
@JsonSerialize(using = ToStringSerializer.class)
@JsonDeserialize(using = LongAsStringDeserializer.class)
public @interface JsonLongAsString {
}
