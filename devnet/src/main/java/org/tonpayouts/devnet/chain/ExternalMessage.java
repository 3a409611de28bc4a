package org.tonpayouts.devnet.chain;

import java.util.Objects;
import org.tonpayouts.ton.address.TonAddress;
import org.tonpayouts.ton.cell.MessageCells;
import org.tonpayouts.ton.cell.TonCell;

/**
 * An external-in message as sendBoc received it: destination, optional StateInit, body, and the
 * two hashes clients match it by.
 *
 * @param hash lowercase hex hash of the message cell as sent (toncenter's {@code hash}, and the
 *     {@code in_msg.hash} of the transaction it causes)
 * @param normalizedHash lowercase hex TEP-467 normalized hash (toncenter's {@code hash_norm})
 * @param init the StateInit it carries, or {@code null}
 * @param body the body cell (the empty cell for an empty inline body)
 */
public record ExternalMessage(TonCell root, String hash, String normalizedHash, TonAddress destination,
                              MessageCells.StateInit init, TonCell body) {
  public ExternalMessage {
    Objects.requireNonNull(root, "root");
    Objects.requireNonNull(hash, "hash");
    Objects.requireNonNull(destination, "destination");
    Objects.requireNonNull(body, "body");
  }

  /** Decodes a BOC holding one external-in message. */
  public static ExternalMessage parse(byte[] boc) throws MalformedMessageException {
    if (boc == null || boc.length == 0) {
      throw new MalformedMessageException("empty BOC");
    }
    TonCell root;
    try {
      root = TonCell.fromBoc(boc);
    } catch (RuntimeException e) {
      // MalformedCellException says why; anything else a sender's bytes make the codec throw is still their garbage
      throw new MalformedMessageException("cannot deserialize BOC: " + describe(e), e);
    }
    return read(root);
  }

  /** Decodes the external-in message {@code root}. */
  static ExternalMessage read(TonCell root) throws MalformedMessageException {
    MessageCells.ExternalIn message;
    try {
      message = MessageCells.readExternalIn(root);
    } catch (RuntimeException e) {
      throw new MalformedMessageException("BOC is not a message: " + describe(e), e);
    }
    TonAddress destination = message.destination();
    return new ExternalMessage(root, root.hashHex(),
        Cells.hex(MessageCells.normalizedHash(destination, message.body())), destination, message.init(),
        message.body());
  }

  private static String describe(Throwable e) {
    return e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage();
  }
}
