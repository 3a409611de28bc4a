package org.tonpayouts.devnet.chain;

import java.util.HexFormat;
import java.util.Locale;
import org.tonpayouts.ton.address.TonAddress;

/**
 * An external message the destination account did not accept: no transaction, no fee, no seqno
 * change. {@link #toncenterError()} is the text toncenter returns (HTTP 500) for it.
 */
public final class MessageRejectedException extends Exception {
  /** Exit code of a run that ran out of gas before accepting (the balance cannot pay the compute fee). */
  public static final int OUT_OF_GAS = -14;
  /** Exit code of reading past the end of a cell (a body too short for the wallet's fields). */
  public static final int CELL_UNDERFLOW = 9;

  private static final String PREFIX =
      "LITE_SERVER_UNKNOWN: cannot apply external message to current state : External message was not accepted\n"
          + "Cannot run message on account: inbound external message rejected ";

  private final TonAddress account;
  private final Integer exitCode;
  private final boolean ranCode;
  private final String reason;

  private MessageRejectedException(TonAddress account, Integer exitCode, boolean ranCode, String reason) {
    super(reason);
    this.account = account;
    this.exitCode = exitCode;
    this.ranCode = ranCode;
    this.reason = reason;
  }

  /** The contract threw {@code exitCode} before {@code accept_message()}. */
  static MessageRejectedException exit(TonAddress account, int exitCode, String reason) {
    return new MessageRejectedException(account, exitCode, true, reason);
  }

  /**
   * No code ran: the account has none and the message brings none that fits (no StateInit, or
   * one whose hash is not the address). The compute phase is skipped, nothing accepts the
   * message, and the node reports a transaction with {@code exitcode=0, steps=0}.
   */
  static MessageRejectedException noCodeRan(TonAddress account, String reason) {
    return new MessageRejectedException(account, 0, false, reason);
  }

  /** devnet cannot run the contract at all (code that is not WalletV4R2, plugin ops): its own refusal. */
  static MessageRejectedException beforeExecution(TonAddress account, String reason) {
    return new MessageRejectedException(account, null, false, reason);
  }

  public TonAddress account() {
    return account;
  }

  /** The contract's exit code, or {@code null} when the contract did not run. */
  public Integer exitCode() {
    return exitCode;
  }

  /** Short human-readable reason (devnet's own words), for logs. */
  public String reason() {
    return reason;
  }

  /** The error text toncenter gives for this rejection (shape of a real liteserver answer). */
  public String toncenterError() {
    String accountHex = HexFormat.of().formatHex(account.hash()).toUpperCase(Locale.ROOT);
    if (exitCode == null) {
      return PREFIX + "by account " + accountHex + " before smart-contract execution (" + reason + ")";
    }
    if (!ranCode) {
      return PREFIX + "by transaction " + accountHex + ":\n"
          + "exitcode=0, steps=0, gas_used=0\n"
          + "(devnet: " + reason + ")";
    }
    return PREFIX + "by transaction " + accountHex + ":\n"
        + "exitcode=" + exitCode + ", steps=" + steps(exitCode) + ", gas_used=0\n"
        + "VM Log (truncated):\n"
        + vmLogTail(exitCode)
        + "default exception handler, terminating vm with exit code " + exitCode + "\n"
        + "(devnet: " + reason + ")";
  }

  private static String vmLogTail(int exitCode) {
    return switch (exitCode) {
      case OUT_OF_GAS -> "...execute ACCEPT\nout of gas\n";
      case CELL_UNDERFLOW -> "...execute LDSLICEX\nhandling exception code 9: cell underflow\n";
      case 36 -> "...execute THROWIF 36\n";
      default -> "...execute THROWIFNOT " + exitCode + "\n";
    };
  }

  /** Plausible TVM step counts of the real wallet code at each check. */
  private static int steps(int exitCode) {
    return switch (exitCode) {
      case CELL_UNDERFLOW -> 5;
      case 36 -> 22;
      case 33 -> 29;
      case 34 -> 31;
      case 35 -> 34;
      default -> 40;
    };
  }
}
