package org.tonpayouts.streams.admin;

import static org.assertj.core.api.Assertions.assertThat;

import java.math.BigInteger;
import java.time.Instant;
import org.junit.jupiter.api.Test;
import org.tonpayouts.schemas.JettonAmount;
import org.tonpayouts.streams.ledger.operator.ApprovalAsk;
import org.tonpayouts.streams.ledger.sql.TransferRow;
import org.tonpayouts.streams.ledger.sql.TransferStatus;

/**
 * An operator cannot resolve a jetton transfer through the admin API: the checks behind a
 * resolution read the subwallet's transactions, where a jetton payout shows only as TON handed to
 * our own jetton wallet. A FAILED resolved on that evidence could have the jettons paid twice.
 */
class JettonResolutionTest {
  private static final Instant T = Instant.parse("2026-11-27T12:00:00Z");

  @Test
  void shouldRefuseToProveEitherOutcomeOfAJettonTransfer() throws Exception {
    TransferRow jetton = new TransferRow("r", "w-1", 0, "WITHDRAWAL", 698983191L, "0:" + "11".repeat(32),
        "0:" + "22".repeat(32), 50_000_000L, T, 4L, 1, TransferStatus.RECONCILIATION_REQUIRED, "seqno moved on",
        null, null, null, null, T, T, T, new JettonAmount("0:" + "33".repeat(32), BigInteger.valueOf(2_500_000)), 42L,
        null);
    // no ledger and no chain reads: a jetton transfer is refused before either is asked anything
    ResolutionProof proofs = new ResolutionProof(null, null, null);

    for (ApprovalAsk ask : new ApprovalAsk[] {new ApprovalAsk("FAILED", null, null, null, "never paid"),
        new ApprovalAsk("SETTLED", "44".repeat(32), 9L, null, "paid")}) {
      ResolutionProof.Outcome outcome = proofs.of(jetton, ask);
      assertThat(outcome).isInstanceOf(ResolutionProof.Unproven.class);
      assertThat(((ResolutionProof.Unproven) outcome).missing()).contains("pays a jetton").contains("query_id 42")
          .contains("never the receiver's acceptance");
    }
  }
}
