package org.tonpayouts.local.audit;

/** Names one requested transfer across events: the request id and the transfer id within it. */
public record TransferRef(String requestId, String transferId) {
  @Override
  public String toString() {
    return requestId + "/" + transferId;
  }
}
