package org.tonpayouts.schemas;

import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonInclude;

/**
 * One transfer a producer asks for inside a {@link PayoutRequest}: who gets how many nanotons, or
 * how many base units of a jetton ({@code jetton}).
 *
 * @param transferId producer's id of the transfer, unique within its request; with the request id
 *     it names the transfer in every later event
 * @param kind why the transfer is paid (bookkeeping only)
 * @param destination TON address text exactly as the producer gave it (raw or user-friendly);
 *     parsed and checked downstream with {@code TonAddress}
 * @param amountNano nanotons to send, positive; written as a JSON string. A jetton transfer's
 *     request leaves it out (0 here); intake sets it to the TON the deployment attaches to that
 *     jetton's transfers ({@link #withTonAttached}), so past intake it is what the wallet's
 *     message carries for every transfer, TON or jetton
 * @param comment text comment attached to the transfer, or null for none
 * @param bounce bounce flag for the internal message, or null to take it from the destination's
 *     user-friendly flag (raw addresses then default downstream); a jetton transfer's message
 *     goes to our own jetton wallet, always bounceable, so it has no bounce flag
 * @param jetton the jetton paid instead of TON, or null for a TON transfer
 */
public record TransferRequest(
    String transferId,
    TransferKind kind,
    String destination,
    // left out while 0: a jetton transfer as its producer writes it (intake attaches the TON; a TON
    // transfer's is always positive), so what this record writes is a valid request
    @JsonLongAsString @JsonInclude(JsonInclude.Include.NON_DEFAULT) long amountNano,
    String comment,
    Boolean bounce,
    JettonAmount jetton) {

  /** Longest comment accepted; see the request schema for the reasoning. */
  public static final int MAX_COMMENT_LENGTH = 1000;

  @JsonCreator // the canonical constructor, not the TON-only one below
  public TransferRequest {
    Check.nonBlank(transferId, "transferId");
    Check.present(kind, "kind");
    Check.nonBlank(destination, "destination");
    if (jetton == null) {
      Check.positive(amountNano, "amountNano");
    } else {
      Check.nonNegative(amountNano, "amountNano of a jetton transfer");
      if (bounce != null) {
        throw new IllegalArgumentException("a jetton transfer has no bounce flag: its message goes to our own jetton"
            + " wallet, always bounceable");
      }
    }
  }

  /** A TON transfer. */
  public TransferRequest(String transferId, TransferKind kind, String destination, long amountNano, String comment,
      Boolean bounce) {
    this(transferId, kind, destination, amountNano, comment, bounce, null);
  }

  /** A jetton transfer, as its producer asks for it (no TON amount: intake attaches it). */
  public static TransferRequest ofJetton(String transferId, TransferKind kind, String destination, JettonAmount jetton,
      String comment) {
    return new TransferRequest(transferId, kind, destination, 0, comment, null, Check.present(jetton, "jetton"));
  }

  /** True for a jetton transfer (not named isJetton: Jackson would take that for a property). */
  public boolean paysJetton() {
    return jetton != null;
  }

  /** This jetton transfer with the TON its message carries to our jetton wallet (intake, from the configuration). */
  public TransferRequest withTonAttached(long nano) {
    if (jetton == null) {
      throw new IllegalStateException("transfer " + transferId + " pays TON: its amount is the producer's");
    }
    Check.positive(nano, "TON attached to a jetton transfer");
    return new TransferRequest(transferId, kind, destination, nano, comment, bounce, jetton);
  }
}
