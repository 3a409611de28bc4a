package org.tonpayouts.local;

import org.tonpayouts.schemas.Settlement;

/**
 * A settlement as the launcher read it.
 *
 * @param observedAtMillis wall-clock time the launcher's read_committed consumer received it
 */
public record ObservedSettlement(Settlement settlement, long observedAtMillis) {
  public TransferRef ref() {
    return new TransferRef(settlement.requestId(), settlement.transferId());
  }
}
