package org.tonpayouts.ton.api;

/**
 * The node does not have the block yet: a masterchain seqno beyond its last block, or a shard
 * block its shard client has not applied (toncenter answers HTTP 500
 * {@code LITE_SERVER_NOTREADY: cannot find block (-1,8000000000000000) seqno=N: ltdb: block not
 * found (last known masterchain block: M)}). Behind a load balancer one node can be a few blocks
 * behind another. A block follower waits for the next masterchain block and asks again; the
 * client does not retry it by itself, so the follower decides how long a block may keep it
 * waiting.
 */
public final class BlockNotReadyException extends TonApiException {
  private final String text;

  public BlockNotReadyException(String method, int httpStatus, String text) {
    super(method, httpStatus, "block not ready: " + text, null);
    this.text = text;
  }

  /** The server's error text (scrubbed of the API key). */
  public String text() {
    return text;
  }

  /** The block may exist on this node later. */
  @Override
  public boolean isTransient() {
    return true;
  }
}
