package org.tonpayouts.streams.validation;

import java.math.BigInteger;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.tonpayouts.runtime.jettons.JettonCatalog;
import org.tonpayouts.runtime.jettons.JettonSettings;
import org.tonpayouts.schemas.PayoutRequest;
import org.tonpayouts.schemas.TransferRequest;
import org.tonpayouts.ton.address.InvalidAddressException;
import org.tonpayouts.ton.address.TonAddress;

/**
 * The intake checks of jetton transfers against the deployment's jettons ({@code jettons}): the
 * master must be one of them, each amount and each request's sum per jetton within that jetton's
 * limits; and, once a request passed every check, the TON each jetton transfer's message carries
 * ({@link #withTonAttached}).
 */
public final class JettonRules {
  private final JettonCatalog jettons;

  public JettonRules(JettonCatalog jettons) {
    this.jettons = jettons;
  }

  /** Every problem of the request's jetton transfers; empty when it has none or they may be paid. */
  public List<String> problems(PayoutRequest request) {
    List<String> problems = new ArrayList<>();
    Map<JettonSettings, BigInteger> totals = new LinkedHashMap<>();
    for (int i = 0; i < request.transfers().size(); i++) {
      TransferRequest t = request.transfer(i);
      if (!t.paysJetton()) {
        continue;
      }
      String at = "$.transfers[" + i + "].jetton.";
      Optional<JettonSettings> jetton;
      try {
        jetton = settingsOf(t);
      } catch (InvalidAddressException e) {
        problems.add(at + "master: " + e.getMessage());
        continue;
      }
      if (jetton.isEmpty()) {
        problems.add(at + "master: " + t.jetton().master() + " is not a jetton this deployment pays ("
            + (jettons.isEmpty() ? "it pays TON only" : "it pays " + jettons.all().stream()
                .map(j -> j.symbol() + " " + j.master().toFriendly(true, false)).toList())
            + "; the jettons are configured in jettons)");
        continue;
      }
      JettonSettings j = jetton.get();
      BigInteger amount = t.jetton().amount();
      if (amount.compareTo(j.maxPerTransfer()) > 0) {
        problems.add(at + "amount: " + j.describe(amount) + " is above the per-transfer limit of "
            + j.describe(j.maxPerTransfer()) + " (jettons: " + j.symbol() + " max.transfer)");
      }
      totals.merge(j, amount, BigInteger::add);
    }
    totals.forEach((j, total) -> {
      if (total.compareTo(j.maxPerRequest()) > 0) {
        problems.add("$.transfers: the request's " + j.symbol() + " transfers add up to " + j.describe(total)
            + ", above the per-request limit of " + j.describe(j.maxPerRequest()) + " (jettons: " + j.symbol()
            + " max.request)");
      }
    });
    return problems;
  }

  /**
   * {@code request} with each jetton transfer's TON attached from its jetton's settings.
   *
   * @throws IllegalArgumentException for a jetton the deployment does not pay ({@link #problems} first)
   */
  public PayoutRequest withTonAttached(PayoutRequest request) {
    if (request.transfers().stream().noneMatch(TransferRequest::paysJetton)) {
      return request;
    }
    List<TransferRequest> attached = request.transfers().stream()
        .map(t -> t.paysJetton() ? t.withTonAttached(settings(t).attachNano()) : t)
        .toList();
    return new PayoutRequest(request.schemaVersion(), request.requestId(), request.subwalletId(), attached,
        request.createdAt());
  }

  /** The settings of a jetton transfer's jetton. */
  public JettonSettings settings(TransferRequest t) {
    return settingsOf(t).orElseThrow(() -> new IllegalArgumentException(
        "transfer " + t.transferId() + " pays jetton " + t.jetton().master() + ", which is not configured"));
  }

  private Optional<JettonSettings> settingsOf(TransferRequest t) {
    return jettons.byMaster(TonAddress.parse(t.jetton().master()));
  }
}
