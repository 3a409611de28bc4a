package org.tonpayouts.schemas;

import com.fasterxml.jackson.annotation.JsonFormat;
import java.math.BigInteger;

/**
 * What a {@link Submission} of a jetton transfer tells the chain poller beyond the wallet's own
 * message: the wallet's message only hands the transfer to the subwallet's own jetton wallet
 * ({@code senderJettonWallet}, with {@code amountNano} TON attached); the payout is delivered when
 * the receiver's jetton wallet accepts {@code internal_transfer} from that wallet with
 * {@code queryId}.
 *
 * @param master the jetton master, raw form
 * @param amount jetton base units paid to the submission's destination
 * @param queryId the TEP-74 {@code query_id}: unique per transfer, the same in every attempt,
 *     recorded with the transfer's first intent; written as a JSON string
 * @param senderJettonWallet the subwallet's own jetton wallet for {@code master}, raw form
 * @param forwardTonNano nanotons the receiver's jetton wallet forwards with the notification
 */
public record JettonOrder(
    String master,
    @JsonFormat(shape = JsonFormat.Shape.STRING) BigInteger amount,
    @JsonLongAsString long queryId,
    String senderJettonWallet,
    @JsonLongAsString long forwardTonNano) {

  public JettonOrder {
    Check.nonBlank(master, "jetton.master");
    new JettonAmount(master, amount); // the same bounds as a request's
    Check.nonNegative(queryId, "jetton.queryId");
    Check.nonBlank(senderJettonWallet, "jetton.senderJettonWallet");
    Check.nonNegative(forwardTonNano, "jetton.forwardTonNano");
  }
}
