package org.tonpayouts.devnet.chain;

import java.util.Objects;
import org.tonpayouts.ton.address.TonAddress;
import org.tonpayouts.ton.cell.TonCell;

/**
 * A message as devnet recorded it in a transaction. Hashes are lowercase hex.
 *
 * @param hash hash of the message cell: for an external message exactly the cell that was sent,
 *     for an internal one the cell devnet rebuilt with its source, created_lt and fees filled in
 * @param source {@code null} for an external-in message
 * @param value nanotons carried (0 for an external message)
 * @param fwdFee forwarding fee charged for it (0 for an external message)
 * @param createdLt logical time of creation (0 for an external message)
 * @param body the body cell (the empty cell when the message has none)
 * @param init the StateInit cell it carried, or {@code null}
 * @param comment the text comment of the body, or {@code null} when it is not one
 * @param cell the message cell as the transaction records it ({@code hash} is its hash)
 */
public record DevnetMessage(String hash, TonAddress source, TonAddress destination, long value, long fwdFee,
                            long createdLt, long createdAt, boolean bounce, boolean bounced,
                            TonCell body, TonCell init, String comment, TonCell cell) {
  public DevnetMessage {
    Objects.requireNonNull(hash, "hash");
    Objects.requireNonNull(destination, "destination");
    Objects.requireNonNull(body, "body");
    Objects.requireNonNull(cell, "cell");
  }

  public boolean external() {
    return source == null;
  }

  /** Lowercase hex hash of the body cell. */
  public String bodyHash() {
    return body.hashHex();
  }

  @Override
  public String toString() {
    return "DevnetMessage[hash=" + hash + ", source=" + source + ", destination=" + destination + ", value=" + value
        + ", createdLt=" + createdLt + ", bounce=" + bounce + ", bounced=" + bounced
        + (comment == null ? "" : ", comment=" + comment) + "]";
  }
}
