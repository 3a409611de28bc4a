package org.tonpayouts.streams.validation;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import org.tonpayouts.runtime.PayoutsConfig;
import org.tonpayouts.runtime.jettons.JettonCatalog;
import org.tonpayouts.schemas.PayoutRequest;
import org.tonpayouts.schemas.Topics;
import org.tonpayouts.schemas.TransferRequest;
import org.tonpayouts.ton.address.InvalidAddressException;
import org.tonpayouts.ton.address.ParsedAddress;
import org.tonpayouts.ton.address.TonAddress;
import org.tonpayouts.ton.network.TonNetwork;

/**
 * The checks of a payout request that need this deployment's settings or TON knowledge, applied
 * after the request passed its JSON Schema: the record key, the allowed subwallet range, every
 * destination address (with what is wrong with it, on mainnet no address flagged for testnet, and
 * none that the {@link DestinationPolicy} refuses), the amount limits ({@link AmountLimits}), the
 * jettons paid and their limits ({@link JettonRules}) and the comment policy ({@link CommentPolicy}).
 */
public final class RequestRules {
  /** Characters of a bad record key quoted in a reason. */
  private static final int MAX_QUOTED_KEY = 70;

  private final long subwalletMin;
  private final long subwalletMax;
  private final AmountLimits amountLimits;
  private final CommentPolicy comments;
  private final TonNetwork network;
  private final DestinationPolicy destinations;
  private final JettonRules jettons;

  /**
   * @param network the network the deployment pays on: on mainnet, destinations flagged for testnet
   *     are refused
   * @param destinations the destinations refused whatever their form (own subwallets, the deny list)
   */
  public RequestRules(long subwalletMin, long subwalletMax, AmountLimits amountLimits, CommentPolicy comments,
      TonNetwork network, DestinationPolicy destinations) {
    this(subwalletMin, subwalletMax, amountLimits, comments, network, destinations, new JettonRules(JettonCatalog.none()));
  }

  /** @param jettons the jettons the deployment pays, and their limits */
  public RequestRules(long subwalletMin, long subwalletMax, AmountLimits amountLimits, CommentPolicy comments,
      TonNetwork network, DestinationPolicy destinations, JettonRules jettons) {
    this.subwalletMin = subwalletMin;
    this.subwalletMax = subwalletMax;
    this.amountLimits = amountLimits;
    this.comments = comments;
    this.network = Objects.requireNonNull(network, "network");
    this.destinations = Objects.requireNonNull(destinations, "destinations");
    this.jettons = Objects.requireNonNull(jettons, "jettons");
  }

  /**
   * The rules configured for this deployment. Without {@code ton.network} (which both apps require
   * before they start) the rules are mainnet's, the strictest.
   */
  public static RequestRules from(PayoutsConfig config, DestinationPolicy destinations) {
    return new RequestRules(config.subwalletMin(), config.subwalletMax(), AmountLimits.from(config),
        config.commentControlCharactersAllowed() ? CommentPolicy.allowingControlCharacters() : CommentPolicy.strict(),
        config.tonNetwork().orElse(TonNetwork.MAINNET), destinations, new JettonRules(config.jettons()));
  }

  /** The request as the wallet processor takes it: each jetton transfer with its TON attached ({@link JettonRules}). */
  public PayoutRequest accepted(PayoutRequest request) {
    return jettons.withTonAttached(request);
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
      Optional<String> destination;
      try {
        ParsedAddress parsed = TonAddress.parseWithFlags(transfer.destination());
        destination = networkProblem(transfer.destination(), parsed).or(() -> destinations.problem(parsed.address()));
      } catch (InvalidAddressException e) {
        destination = Optional.of(e.getMessage());
      }
      if (destination.isPresent()) {
        problems.add("$.transfers[" + i + "].destination: " + destination.get());
      }
      Optional<String> comment = comments.problem(transfer.comment());
      if (comment.isPresent()) {
        problems.add("$.transfers[" + i + "].comment: " + comment.get());
      }
    }
    problems.addAll(amountLimits.problems(request));
    problems.addAll(jettons.problems(request));
    return problems;
  }

  /**
   * Why a destination may not be paid on this network: a user-friendly form flagged for testnet
   * ({@code kQ…}, {@code 0Q…}) on mainnet, where the producer most likely mixed up its environments
   * (the raw form carries no flag and passes).
   */
  private Optional<String> networkProblem(String text, ParsedAddress destination) {
    if (!destination.userFriendly() || !destination.testnet() || network.paysTestnetFlaggedAddresses()) {
      return Optional.empty();
    }
    return Optional.of("address " + quote(text.strip()) + " is flagged for testnet (its user-friendly form carries the"
        + " testnet flag, as kQ... and 0Q... addresses do), but this deployment pays on " + network + " (" + PayoutsConfig.TON_NETWORK_CONFIG + "=" + network
        + "): a testnet address in a " + network + " payout is most often a mix-up of environments. Ask the recipient"
        + " for its " + network + " address (EQ... or UQ...)");
  }

  private static String quote(String key) {
    return "'" + (key.length() > MAX_QUOTED_KEY ? key.substring(0, MAX_QUOTED_KEY) + "..." : key) + "'";
  }
}
