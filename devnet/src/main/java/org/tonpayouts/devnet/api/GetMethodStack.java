package org.tonpayouts.devnet.api;

import static org.tonpayouts.devnet.api.ToncenterJson.JSON;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import org.tonpayouts.devnet.chain.StackValue;
import org.tonpayouts.ton.cell.MalformedCellException;
import org.tonpayouts.ton.cell.TonCell;

/**
 * runGetMethod's stacks in toncenter's JSON. Arguments: {@code [["num", "0x5"]]}, and slices or
 * cells as the base64 BOC of a cell ({@code ["tvm.Slice", "<b64>"]}, also {@code "slice"},
 * {@code "tvm.Cell"}, {@code "cell"}, or an object with {@code bytes}). Results as toncenter's
 * server renders them (tvm_valuetypes' {@code serialize_tvm_element}): integers
 * {@code ["num", "0x.."]} (negative {@code "-0x.."}), and slices and cells alike
 * {@code ["cell", {"bytes": "<b64 BOC>", "object": {"data": {"b64", "len"}, "refs": [...]}}]}.
 */
final class GetMethodStack {
  private GetMethodStack() {}

  /** The arguments of a runGetMethod request, first first; 422 for a shape toncenter would refuse. */
  static List<StackValue> arguments(JsonNode stack) {
    List<StackValue> args = new ArrayList<>();
    if (stack == null || stack.isNull()) {
      return args;
    }
    for (JsonNode entry : stack) {
      if (!entry.isArray() || entry.size() != 2) {
        throw ApiException.validation("a stack entry is [type, value], got " + entry);
      }
      String type = entry.get(0).asText();
      JsonNode value = entry.get(1);
      switch (type) {
        case "num", "number", "int" -> args.add(new StackValue.Num(number(value)));
        case "tvm.Slice", "slice" -> args.add(new StackValue.Slice(cell(value)));
        case "tvm.Cell", "cell" -> args.add(new StackValue.Cell(cell(value)));
        default -> throw ApiException.validation("stack entry type '" + type + "' is not supported (num, tvm.Slice, tvm.Cell)");
      }
    }
    return args;
  }

  /** One result entry as toncenter writes it. */
  static ArrayNode entry(StackValue value) {
    ArrayNode entry = JSON.arrayNode();
    if (value instanceof StackValue.Num num) {
      BigInteger n = num.value();
      return entry.add("num").add((n.signum() < 0 ? "-0x" : "0x") + n.abs().toString(16));
    }
    TonCell cell = value instanceof StackValue.Slice slice ? slice.cell() : ((StackValue.Cell) value).cell();
    ObjectNode boxed = JSON.objectNode();
    boxed.put("bytes", cell.toBase64());
    boxed.set("object", object(cell));
    return entry.add("cell").add(boxed);
  }

  private static ObjectNode object(TonCell cell) {
    ObjectNode data = JSON.objectNode();
    data.put("b64", Base64.getEncoder().encodeToString(cell.dataBytes()));
    data.put("len", cell.bitLength());
    ObjectNode n = JSON.objectNode();
    n.set("data", data);
    ArrayNode refs = n.putArray("refs");
    for (TonCell ref : cell.refs()) {
      refs.add(object(ref));
    }
    return n;
  }

  private static BigInteger number(JsonNode value) {
    String text = value.asText().strip();
    try {
      boolean negative = text.startsWith("-");
      String digits = negative ? text.substring(1) : text;
      BigInteger n = digits.startsWith("0x") || digits.startsWith("0X")
          ? new BigInteger(digits.substring(2), 16) : new BigInteger(digits);
      return negative ? n.negate() : n;
    } catch (NumberFormatException e) {
      throw ApiException.validation("not a number: " + text);
    }
  }

  private static TonCell cell(JsonNode value) {
    String b64 = value.isObject() && value.has("bytes") ? value.get("bytes").asText() : value.asText();
    try {
      return TonCell.fromBase64(b64);
    } catch (MalformedCellException e) {
      throw ApiException.validation("not the base64 BOC of a cell: " + e.getMessage());
    }
  }
}
