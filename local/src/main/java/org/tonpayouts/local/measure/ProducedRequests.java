package org.tonpayouts.local.measure;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import org.apache.kafka.common.errors.SerializationException;
import org.apache.kafka.common.serialization.Serializer;
import org.tonpayouts.schemas.Json;
import org.tonpayouts.schemas.PayoutRequest;
import org.tonpayouts.schemas.TransferRequest;

/**
 * How every load of the launcher (demo, bench, soak) writes a {@link PayoutRequest} to {@code
 * payout.requests}: as a producer service does. The project's mapper writes a jetton transfer's
 * {@code amountNano} as {@code "0"} (the record has no TON amount until intake attaches it), which
 * the request schema refuses; a producer leaves it out, so this one place does.
 */
public final class ProducedRequests implements Serializer<PayoutRequest> {

  /** The request as a producer writes it. */
  public static byte[] json(PayoutRequest request) {
    try {
      if (request.transfers().stream().noneMatch(TransferRequest::paysJetton)) {
        return Json.mapper().writeValueAsBytes(request);
      }
      ObjectNode tree = Json.mapper().valueToTree(request);
      for (JsonNode transfer : tree.withArray("transfers")) {
        if (transfer.hasNonNull("jetton")) {
          ((ObjectNode) transfer).remove("amountNano");
        }
      }
      return Json.mapper().writeValueAsBytes(tree);
    } catch (JsonProcessingException e) {
      throw new SerializationException("cannot write request " + request.requestId(), e);
    }
  }

  @Override
  public byte[] serialize(String topic, PayoutRequest request) {
    return request == null ? null : json(request);
  }
}
