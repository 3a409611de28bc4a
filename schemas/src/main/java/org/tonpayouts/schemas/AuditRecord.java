package org.tonpayouts.schemas;

import java.time.Instant;

/**
 * Published to {@code payout.audit}: one row of streams-app's audit log ({@code audit_log}), an
 * unusual event operators and auditors should see (another signer used a wallet, a transfer needs
 * reconciliation, a payout bounced, a zombie instance was fenced, an operator resolved a transfer).
 * Published at least once from the ledger: consumers deduplicate on {@link #auditId}.
 *
 * @param schemaVersion version of this shape, {@link #SCHEMA_VERSION} when written by this code
 * @param auditId the row's id in {@code audit_log}: unique, increasing in recording order
 * @param at when it was recorded
 * @param level how much it matters; operators alert on {@code ERROR}
 * @param event what happened (e.g. {@code SEQNO_MISMATCH}, {@code RECONCILIATION_REQUIRED},
 *     {@code OPERATOR_RESOLUTION}); an open set: new kinds may appear
 * @param subwalletId the wallet concerned, when one is; also the record key (null key otherwise)
 * @param walletAddress its raw address, when known
 * @param requestId the request concerned, when one is
 * @param transferId the transfer concerned, when one is
 * @param seqno the seqno concerned, when one is
 * @param messageHash the message concerned, when one is
 * @param txHash the transaction concerned, when one is
 * @param detail what exactly, in words
 */
public record AuditRecord(
    int schemaVersion,
    long auditId,
    Instant at,
    Level level,
    String event,
    Long subwalletId,
    String walletAddress,
    String requestId,
    String transferId,
    Long seqno,
    String messageHash,
    String txHash,
    String detail) {

  public static final int SCHEMA_VERSION = 1;

  /** How much an audit event matters. */
  public enum Level { INFO, WARNING, ERROR }

  public AuditRecord {
    Check.schemaVersion(schemaVersion);
    Check.positive(auditId, "auditId");
    Check.present(at, "at");
    Check.present(level, "level");
    Check.nonBlank(event, "event");
    if (subwalletId != null) {
      Check.subwalletId(subwalletId);
    }
    Check.nonNegative(seqno, "seqno");
    Check.hash(messageHash, "messageHash");
    Check.hash(txHash, "txHash");
    Check.nonBlank(detail, "detail");
  }

  /** A record in the current schema version (arguments in record order). */
  public static AuditRecord of(long auditId, Instant at, Level level, String event, Long subwalletId,
      String walletAddress, String requestId, String transferId, Long seqno, String messageHash, String txHash,
      String detail) {
    return new AuditRecord(SCHEMA_VERSION, auditId, at, level, event, subwalletId, walletAddress, requestId,
        transferId, seqno, messageHash, txHash, detail);
  }

  /** The record key: the subwallet id in decimal, or null for an event about no wallet. */
  public String key() {
    return subwalletId == null ? null : Topics.walletKey(subwalletId);
  }
}
