package org.tonpayouts.schemas;

/**
 * One transfer a producer asks for inside a {@link PayoutRequest}: who gets how many nanotons.
 *
 * @param transferId producer's id of the transfer, unique within its request; with the request id
 *     it names the transfer in every later event
 * @param kind why the transfer is paid (bookkeeping only)
 * @param destination TON address text exactly as the producer gave it (raw or user-friendly);
 *     parsed and checked downstream with {@code TonAddress}
 * @param amountNano nanotons to send, positive; written as a JSON string
 * @param comment text comment attached to the transfer, or null for none
 * @param bounce bounce flag for the internal message, or null to take it from the destination's
 *     user-friendly flag (raw addresses then default downstream)
 */
public record TransferRequest(
    String transferId,
    TransferKind kind,
    String destination,
    @JsonLongAsString long amountNano,
    String comment,
    Boolean bounce) {

  /** Longest comment accepted; see the request schema for the reasoning. */
  public static final int MAX_COMMENT_LENGTH = 1000;

  public TransferRequest {
    Check.nonBlank(transferId, "transferId");
    Check.present(kind, "kind");
    Check.nonBlank(destination, "destination");
    Check.positive(amountNano, "amountNano");
  }
}
