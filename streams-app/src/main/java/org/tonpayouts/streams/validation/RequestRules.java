package org.tonpayouts.streams.validation;

import java.util.ArrayList;
import java.util.List;
import org.tonpayouts.schemas.PayoutRequest;
import org.tonpayouts.schemas.Topics;
import org.tonpayouts.schemas.TransferRequest;
import org.tonpayouts.ton.address.InvalidAddressException;
import org.tonpayouts.ton.address.TonAddress;

/**
 * The checks of a payout request that need this deployment's settings or TON knowledge, applied
 * after the request passed its JSON Schema: the record key, the allowed subwallet range and every
 * destination address.
 */
public final class RequestRules {
  private final long subwalletMin;
  private final long subwalletMax;

  public RequestRules(long subwalletMin, long subwalletMax) {
    this.subwalletMin = subwalletMin;
    this.subwalletMax = subwalletMax;
  }

  /** Every problem of the request, empty when it may be paid. */
  public List<String> problems(String key, PayoutRequest request) {
    List<String> problems = new ArrayList<>();
    String expectedKey = Topics.walletKey(request.subwalletId());
    if (!expectedKey.equals(key)) {
      problems.add("record key '" + key + "' must be the subwalletId as a decimal string ('" + expectedKey
          + "'): the key decides which partition, and so which task, owns the wallet");
    }
    if (request.subwalletId() < subwalletMin || request.subwalletId() > subwalletMax) {
      problems.add("$.subwalletId: " + request.subwalletId() + " is outside the allowed range " + subwalletMin + ".."
          + subwalletMax);
    }
    for (int i = 0; i < request.transfers().size(); i++) {
      TransferRequest transfer = request.transfer(i);
      try {
        TonAddress.parse(transfer.destination());
      } catch (InvalidAddressException e) {
        problems.add("$.transfers[" + i + "].destination: " + e.getMessage());
      }
    }
    return problems;
  }
}
