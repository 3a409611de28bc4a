package org.tonpayouts.poller;

import java.time.Instant;
import java.util.Objects;
import org.tonpayouts.schemas.ConfirmationStatus;

/**
 * A message the poller already published a verdict for, remembered for a while so a re-emitted
 * submission of it (streams-app resuming after a crash) is not watched and concluded a second time.
 *
 * @param messageHash hash of the concluded message, lowercase hex
 * @param transferId transfer it paid for
 * @param status the verdict published
 * @param txHash the wallet transaction that applied it, null when none did
 * @param resolvedAt when the verdict was published
 */
public record ResolvedMessage(
    String messageHash, String transferId, ConfirmationStatus status, String txHash, Instant resolvedAt) {

  public ResolvedMessage {
    Objects.requireNonNull(messageHash, "messageHash");
    Objects.requireNonNull(transferId, "transferId");
    Objects.requireNonNull(status, "status");
    Objects.requireNonNull(resolvedAt, "resolvedAt");
  }
}
