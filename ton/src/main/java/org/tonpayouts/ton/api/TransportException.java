package org.tonpayouts.ton.api;

/**
 * No usable answer arrived: connection refused or reset, or the call timed out. For a send this
 * means "unknown": see {@link #maybeDelivered()}.
 */
public final class TransportException extends TonApiException {
  private final boolean timeout;
  private final boolean maybeDelivered;

  public TransportException(String method, String detail, Throwable cause, boolean timeout, boolean maybeDelivered) {
    super(method, 0, detail, cause);
    this.timeout = timeout;
    this.maybeDelivered = maybeDelivered;
  }

  /** True when the call timed out (as opposed to failing to connect or losing the connection). */
  public boolean isTimeout() {
    return timeout;
  }

  /**
   * True for a send whose request may have reached the server: the message may be on its way to
   * the chain. False for reads and for sends that never connected.
   */
  @Override
  public boolean maybeDelivered() {
    return maybeDelivered;
  }

  @Override
  public boolean isTransient() {
    return true;
  }
}
