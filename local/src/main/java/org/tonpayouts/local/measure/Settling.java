package org.tonpayouts.local.measure;

import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.tonpayouts.schemas.SettlementStatus;

/**
 * How the settling phase of a run went.
 *
 * @param loadStartedMillis when the launcher started producing the requests
 * @param lastSettlementMillis arrival of the last settlement of the load (or the give-up time)
 * @param statusCounts transfers by the status of their (first) settlement
 * @param missing transfers without any settlement when waiting stopped
 * @param duplicates transfers with more than one settlement
 * @param settlements the first settlement of each settled transfer
 * @param stoppedBecause why waiting ended early (deadline, a child died); empty when all settled
 */
public record Settling(long loadStartedMillis, long lastSettlementMillis, Map<SettlementStatus, Integer> statusCounts,
                       int missing, int duplicates, List<ObservedSettlement> settlements,
                       Optional<String> stoppedBecause) {
  public int count(SettlementStatus status) {
    return statusCounts.getOrDefault(status, 0);
  }

  public double loadToLastSettlementSeconds() {
    return (lastSettlementMillis - loadStartedMillis) / 1000.0;
  }
}
