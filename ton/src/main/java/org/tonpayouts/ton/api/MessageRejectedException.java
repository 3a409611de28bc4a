package org.tonpayouts.ton.api;

/**
 * The API refused an external message: the liteserver ran it against the account's current state
 * and the wallet contract threw before {@code accept_message()} ({@code exitcode=NN} in the
 * error text), or the seqno was already used ({@code Duplicate msg_seqno N}).
 *
 * <p>WalletV4R2 exit codes: 33 seqno mismatch, 34 subwallet id mismatch, 35 bad signature,
 * 36 expired ({@code valid_until} passed). A rejection produces no transaction and no fee.
 * Beware: re-sending a message that has <em>already applied</em> is also rejected with 33 (its
 * seqno is now stale), so a rejection alone never proves the transfer did not happen: check the
 * chain.
 */
public final class MessageRejectedException extends TonApiException {
  public static final int EXIT_SEQNO_MISMATCH = 33;
  public static final int EXIT_SUBWALLET_MISMATCH = 34;
  public static final int EXIT_BAD_SIGNATURE = 35;
  public static final int EXIT_EXPIRED = 36;

  private final String text;
  private final Integer exitCode;
  private final boolean duplicate;
  private final Long duplicateSeqno;

  /**
   * @param duplicate      the server said {@code Duplicate msg_seqno}
   * @param duplicateSeqno the seqno it named, null when it named none
   */
  public MessageRejectedException(
      String method, int httpStatus, String text, Integer exitCode, boolean duplicate, Long duplicateSeqno) {
    super(method, httpStatus, describe(exitCode, duplicate) + ": " + text, null);
    this.text = text;
    this.exitCode = exitCode;
    this.duplicate = duplicate;
    this.duplicateSeqno = duplicateSeqno;
  }

  private static String describe(Integer exitCode, boolean duplicate) {
    if (duplicate) {
      return "message rejected (duplicate msg_seqno)";
    }
    return exitCode == null ? "message rejected" : "message rejected (exitcode=" + exitCode + ")";
  }

  /** The server's error text (scrubbed of the API key). */
  public String text() {
    return text;
  }

  /** The contract's exit code parsed from {@code exitcode=NN}; null when the text had none. */
  public Integer exitCode() {
    return exitCode;
  }

  /** True when the server said {@code Duplicate msg_seqno}. */
  public boolean isDuplicateSeqno() {
    return duplicate;
  }

  /** The seqno named by {@code Duplicate msg_seqno N}; null when not a duplicate or not named. */
  public Long duplicateSeqno() {
    return duplicateSeqno;
  }

  /** Seqno already used or not yet reached: exit code 33 or a duplicate seqno. */
  public boolean isSeqnoMismatch() {
    return isDuplicateSeqno() || Integer.valueOf(EXIT_SEQNO_MISMATCH).equals(exitCode);
  }

  public boolean isExpired() {
    return Integer.valueOf(EXIT_EXPIRED).equals(exitCode);
  }

  public boolean isBadSignature() {
    return Integer.valueOf(EXIT_BAD_SIGNATURE).equals(exitCode);
  }

  public boolean isSubwalletMismatch() {
    return Integer.valueOf(EXIT_SUBWALLET_MISMATCH).equals(exitCode);
  }
}
