package org.tonpayouts.local.measure;

import org.tonpayouts.local.audit.TransferRef;
import org.tonpayouts.schemas.Settlement;

/**
 * A settlement as the launcher read it.
 *
 * @param observedAtMillis wall-clock time the launcher's read_committed consumer received it
 * @param producedAtMillis the record's timestamp: when streams-app forwarded it (its clock; the local
 *     stack runs on one host)
 */
public record ObservedSettlement(Settlement settlement, long observedAtMillis, long producedAtMillis) {
  public TransferRef ref() {
    return new TransferRef(settlement.requestId(), settlement.transferId());
  }
}
