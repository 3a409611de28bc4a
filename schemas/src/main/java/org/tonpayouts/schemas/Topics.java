package org.tonpayouts.schemas;

import java.util.List;
import org.apache.kafka.common.serialization.Serde;
import org.apache.kafka.common.serialization.Serdes;

/**
 * The catalog of payout topics: every topic name and format is defined here and only here.
 *
 * <p>Every topic is keyed by the paying subwallet id as a decimal string ({@link #walletKey}), so
 * one partition (one stream task) owns each wallet and Kafka UI shows keys readably. Values are
 * JSON carrying {@code schemaVersion}; the JSON Schema of each is at
 * {@link Topic#schemaResource()}.
 */
public final class Topics {

  private static final Serde<String> KEY_SERDE = Serdes.String();

  /**
   * Payout requests from producer services. The value serde validates against the strict request
   * schema: a bad value fails deserialization with a {@link
   * org.apache.kafka.common.errors.SerializationException} whose message is the human-readable
   * reason (a null value included). Consumers that must route bad input to
   * {@link #PAYOUT_REJECTED} read bytes and call {@link PayoutRequestValidator#validate} instead.
   */
  public static final Topic<String, PayoutRequest> PAYOUT_REQUESTS =
      new Topic<>("payout.requests", KEY_SERDE, PayoutRequestValidator.shared().serde());

  /** Signed and sent messages (the chain poller's watch list); written by streams-app. */
  public static final Topic<String, Submission> PAYOUT_SUBMISSIONS =
      new Topic<>("payout.submissions", KEY_SERDE, JsonSerde.of(Submission.class));

  /** What the chain says about each submitted message; written by the chain poller. */
  public static final Topic<String, Confirmation> PAYOUT_CONFIRMATIONS =
      new Topic<>("payout.confirmations", KEY_SERDE, JsonSerde.of(Confirmation.class));

  /** One terminal outcome per requested transfer; written by streams-app, read by consumers. */
  public static final Topic<String, Settlement> PAYOUT_SETTLEMENTS =
      new Topic<>("payout.settlements", KEY_SERDE, JsonSerde.of(Settlement.class));

  /**
   * Refused input with the reason and the original bytes (a bounded prefix); written by streams-app.
   * Its key is the original record's key as received, cut to {@link Rejected#MAX_KEY_CHARS} (it is
   * not necessarily a valid wallet key). The serializer refuses values above
   * {@link Rejected#MAX_SERIALIZED_BYTES}.
   */
  public static final Topic<String, Rejected> PAYOUT_REJECTED =
      new Topic<>("payout.rejected", KEY_SERDE, JsonSerde.of(Rejected.class).limitedTo(Rejected.MAX_SERIALIZED_BYTES));

  /**
   * The audit log of streams-app's ledger, one record per {@code audit_log} row, published at least
   * once by streams-app's outbox publisher (not by the topology): deduplicate on {@code auditId}.
   * Keyed by the subwallet id when the event concerns a wallet, null otherwise.
   */
  public static final Topic<String, AuditRecord> PAYOUT_AUDIT =
      new Topic<>("payout.audit", KEY_SERDE, JsonSerde.of(AuditRecord.class));

  /** Every topic above, in pipeline order (e.g. to create them all). */
  public static final List<Topic<String, ?>> ALL = List.of(
      PAYOUT_REQUESTS, PAYOUT_SUBMISSIONS, PAYOUT_CONFIRMATIONS, PAYOUT_SETTLEMENTS, PAYOUT_REJECTED, PAYOUT_AUDIT);

  /**
   * Topics that must have the same partition count: streams-app reads both in one task per
   * partition, and the request queue and the confirmations of a wallet must meet in that task.
   */
  public static final List<Topic<String, ?>> CO_PARTITIONED = List.of(PAYOUT_REQUESTS, PAYOUT_CONFIRMATIONS);

  private Topics() {
  }

  /**
   * The record key for a subwallet: its id in decimal, e.g. {@code 698983191}.
   *
   * @throws IllegalArgumentException if the id is not an unsigned 32-bit value
   */
  public static String walletKey(long subwalletId) {
    Check.subwalletId(subwalletId);
    return Long.toString(subwalletId);
  }
}
