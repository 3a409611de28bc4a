package org.tonpayouts.schemas;

import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.List;

/** Sample events and request JSON shared by the schema tests. */
final class Fixtures {

  static final Instant T0 = Instant.parse("2026-03-01T12:00:00Z");
  /** 2^53 + 1: the smallest integer a JSON number loses in JavaScript (and in a double). */
  static final long ABOVE_2_53 = 9_007_199_254_740_993L;
  static final long SUBWALLET = 698_983_191L;
  static final String WALLET_RAW = "0:" + "1f".repeat(32);
  static final String DEST_RAW = "0:" + "ab".repeat(32);
  static final String DEST_FRIENDLY = "UQCrq6urq6urq6urq6urq6urq6urq6urq6urq6urq6urq5jh";
  static final String MSG_HASH = "0123456789abcdef".repeat(4);
  static final String NORM_HASH = "fedcba9876543210".repeat(4);
  static final String TX_HASH = "00ff".repeat(16);
  static final String OLD_MSG_HASH = "aa55".repeat(16);
  static final String BOUNCE_TX_HASH = "77ee".repeat(16);

  private Fixtures() {
  }

  static PayoutRequest request() {
    return PayoutRequest.of("req-42", SUBWALLET, List.of(
        new TransferRequest("t1", TransferKind.ESCROW_RELEASE, DEST_FRIENDLY, 1_500_000_000L, "deal 42", null),
        new TransferRequest("t2", TransferKind.COMMISSION_SWEEP, DEST_RAW, ABOVE_2_53, null, false)),
        T0);
  }

  static Submission submission() {
    // a second attempt: same seqno as the first, the first's hash kept with the transfer
    return Submission.of("req-42", "t2", 1, SUBWALLET, WALLET_RAW, 17, MSG_HASH, NORM_HASH,
        1_772_366_460L, DEST_RAW, ABOVE_2_53, 2, T0.plusMillis(71_234), List.of(OLD_MSG_HASH, MSG_HASH),
        T0.plusMillis(1234), true, false);
  }

  static Confirmation confirmed() {
    return Confirmation.of("req-42", "t2", SUBWALLET, MSG_HASH, 17, ConfirmationStatus.CONFIRMED,
        TX_HASH, Long.MAX_VALUE, 1_772_366_402L, ABOVE_2_53, null, T0.plusSeconds(2));
  }

  static Confirmation expired() {
    return Confirmation.of("req-42", "t2", SUBWALLET, MSG_HASH, 17, ConfirmationStatus.EXPIRED,
        null, null, null, null, "valid_until passed, seqno still 17", T0.plusSeconds(90), 1_772_366_471L, null);
  }

  static Confirmation bounced() {
    return Confirmation.of("req-42", "t2", SUBWALLET, MSG_HASH, 17, ConfirmationStatus.BOUNCED,
        BOUNCE_TX_HASH, 42_000_007L, 1_772_366_403L, null, "bounced by " + DEST_RAW, T0.plusSeconds(3), null,
        ABOVE_2_53 - 400_000L);
  }

  static Settlement bouncedSettlement() {
    return Settlement.bounced("req-42", "t2", 1, SUBWALLET, TransferKind.COMMISSION_SWEEP, DEST_RAW, ABOVE_2_53,
        BOUNCE_TX_HASH, 42_000_007L, 17L, MSG_HASH, ABOVE_2_53 - 400_000L, "bounced by " + DEST_RAW, T0,
        T0.plusSeconds(3));
  }

  static Settlement settled() {
    return Settlement.of("req-42", "t2", 1, SUBWALLET, TransferKind.COMMISSION_SWEEP, DEST_RAW,
        ABOVE_2_53, SettlementStatus.SETTLED, TX_HASH, Long.MAX_VALUE, 17L, 2_893_412L, MSG_HASH,
        null, T0, T0.plusSeconds(2));
  }

  /** The second settlement of a transfer that was RECONCILIATION_REQUIRED: an operator found it paid. */
  static Settlement resolvedSettlement() {
    return settled().resolvedBy(new Resolution("alice", "paid by hand, see ticket OPS-17", 42L, T0.plusSeconds(5)));
  }

  static AuditRecord auditRecord() {
    return AuditRecord.of(42L, T0.plusSeconds(5), AuditRecord.Level.INFO, "OPERATOR_RESOLUTION", SUBWALLET,
        WALLET_RAW, "req-42", "t2", 17L, MSG_HASH, TX_HASH, "resolved SETTLED by alice: paid by hand");
  }

  static AuditRecord auditRecordWithoutWallet() {
    return AuditRecord.of(43L, T0, AuditRecord.Level.ERROR, "REQUEST_CONFLICT", null, null, "req-42", null, null,
        null, null, "requestId reused with other content");
  }

  static Settlement aborted() {
    return Settlement.aborted(request(), 1, "transfer t1 failed: EXPIRED", T0.plusSeconds(91));
  }

  static Rejected rejectedText() {
    return Rejected.of("$: required property 'requestId' not found", "698983191",
        "{\"schemaVersion\":1}".getBytes(StandardCharsets.UTF_8), "payout.requests", 3, 1042L, T0);
  }

  static Rejected rejectedBinary() {
    return Rejected.of("$: not valid JSON", null, new byte[] {(byte) 0xc3, 0x28, 0, (byte) 0xff},
        "payout.requests", 0, 7L, T0);
  }

  static Rejected rejectedNull() {
    return Rejected.of("$: value is null (a tombstone); expected a JSON object", "7", null,
        "payout.requests", null, null, T0);
  }

  /** The worst case for size: a megabyte of control bytes, a huge key and thousands of long problems. */
  static Rejected rejectedHostile() {
    List<String> problems = new java.util.ArrayList<>();
    for (int i = 0; i < 5_000; i++) {
      problems.add("$.x" + i + ": \"\u0001\u202e\ud800€".repeat(200));
    }
    return Rejected.of(problems, "\u0001€".repeat(10_000), new byte[1 << 20], "payout.requests", 2, 99L, T0);
  }

  /** Every sample event with the topic it belongs on. */
  static List<Object[]> eventsByTopic() {
    return List.of(
        new Object[] {Topics.PAYOUT_REQUESTS, request()},
        new Object[] {Topics.PAYOUT_SUBMISSIONS, submission()},
        new Object[] {Topics.PAYOUT_CONFIRMATIONS, confirmed()},
        new Object[] {Topics.PAYOUT_CONFIRMATIONS, expired()},
        new Object[] {Topics.PAYOUT_CONFIRMATIONS, bounced()},
        new Object[] {Topics.PAYOUT_SETTLEMENTS, bouncedSettlement()},
        new Object[] {Topics.PAYOUT_SETTLEMENTS, settled()},
        new Object[] {Topics.PAYOUT_SETTLEMENTS, aborted()},
        new Object[] {Topics.PAYOUT_SETTLEMENTS, resolvedSettlement()},
        new Object[] {Topics.PAYOUT_AUDIT, auditRecord()},
        new Object[] {Topics.PAYOUT_AUDIT, auditRecordWithoutWallet()},
        new Object[] {Topics.PAYOUT_REJECTED, rejectedText()},
        new Object[] {Topics.PAYOUT_REJECTED, rejectedBinary()},
        new Object[] {Topics.PAYOUT_REJECTED, rejectedNull()},
        new Object[] {Topics.PAYOUT_REJECTED, rejectedHostile()});
  }

  static byte[] utf8(String text) {
    return text.getBytes(StandardCharsets.UTF_8);
  }
}
