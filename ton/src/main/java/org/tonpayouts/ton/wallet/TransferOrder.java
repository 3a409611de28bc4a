package org.tonpayouts.ton.wallet;

import java.util.Objects;
import org.tonpayouts.ton.address.TonAddress;
import org.tonpayouts.ton.cell.TonCell;

/**
 * One outgoing transfer of a wallet message: who gets how many nanotons, with an optional text
 * comment ({@code null} for none; long comments become snake cells) or a body of its own (a
 * jetton transfer's, {@link org.tonpayouts.ton.jetton.JettonTransfer}), and the bounce flag.
 *
 * @param body the internal message's body when it is not a text comment; null for a comment or none
 */
public record TransferOrder(TonAddress destination, long amountNano, String comment, boolean bounce, TonCell body) {
  public TransferOrder {
    Objects.requireNonNull(destination, "destination");
    if (amountNano <= 0) {
      throw new IllegalArgumentException("amount must be positive nanotons, got " + amountNano);
    }
    if (comment != null && body != null) {
      throw new IllegalArgumentException("an order carries a comment or a body of its own, not both");
    }
  }

  /** A plain transfer, with a text comment or none. */
  public TransferOrder(TonAddress destination, long amountNano, String comment, boolean bounce) {
    this(destination, amountNano, comment, bounce, null);
  }

  /** A transfer whose body is {@code body} (e.g. a jetton transfer to our own jetton wallet). */
  public static TransferOrder withBody(TonAddress destination, long amountNano, TonCell body, boolean bounce) {
    return new TransferOrder(destination, amountNano, null, bounce, Objects.requireNonNull(body, "body"));
  }

  /** The internal message's body as sent: the body of its own, the comment encoded, or null for none. */
  public TonCell bodyCell() {
    return body != null ? body : comment == null ? null : TextComment.encode(comment);
  }
}
