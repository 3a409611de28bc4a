package org.tonpayouts.streams.validation;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.tonpayouts.runtime.PayoutsConfig;
import org.tonpayouts.schemas.PayoutRequest;
import org.tonpayouts.schemas.Topics;
import org.tonpayouts.schemas.TransferRequest;
import org.tonpayouts.ton.address.InvalidAddressException;
import org.tonpayouts.ton.address.TonAddress;

/**
 * The checks of a payout request that need this deployment's settings or TON knowledge, applied
 * after the request passed its JSON Schema: the record key, the allowed subwallet range, every
 * destination address (with what is wrong with it), the amount limits ({@link AmountLimits}) and
 * the comment policy ({@link CommentPolicy}).
 */
public final class RequestRules {
  /** Characters of a bad record key quoted in a reason. */
  private static final int MAX_QUOTED_KEY = 70;

  private final long subwalletMin;
  private final long subwalletMax;
  private final AmountLimits amountLimits;
  private final CommentPolicy comments;

  public RequestRules(long subwalletMin, long subwalletMax, AmountLimits amountLimits, CommentPolicy comments) {
    this.subwalletMin = subwalletMin;
    this.subwalletMax = subwalletMax;
    this.amountLimits = amountLimits;
    this.comments = comments;
  }

  /** The rules configured for this deployment. */
  public static RequestRules from(PayoutsConfig config) {
    return new RequestRules(config.subwalletMin(), config.subwalletMax(), AmountLimits.from(config),
        config.commentControlCharactersAllowed() ? CommentPolicy.allowingControlCharacters() : CommentPolicy.strict());
  }

  /** Every problem of the request, empty when it may be paid. */
  public List<String> problems(String key, PayoutRequest request) {
    List<String> problems = new ArrayList<>();
    String expectedKey = Topics.walletKey(request.subwalletId());
    if (key == null) {
      problems.add("record key: no key; it must be the subwalletId as a decimal string ('" + expectedKey
          + "'): the key decides which partition, and so which task, owns the wallet");
    } else if (!expectedKey.equals(key)) {
      problems.add("record key " + quote(key) + " must be the subwalletId as a decimal string ('" + expectedKey
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
      Optional<String> comment = comments.problem(transfer.comment());
      if (comment.isPresent()) {
        problems.add("$.transfers[" + i + "].comment: " + comment.get());
      }
    }
    problems.addAll(amountLimits.problems(request));
    return problems;
  }

  private static String quote(String key) {
    return "'" + (key.length() > MAX_QUOTED_KEY ? key.substring(0, MAX_QUOTED_KEY) + "..." : key) + "'";
  }
}
