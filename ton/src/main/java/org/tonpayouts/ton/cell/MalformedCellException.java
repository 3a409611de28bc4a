package org.tonpayouts.ton.cell;

/** A BOC or cell that is not what it claims to be: bad encoding, or a read past a cell's end. */
public final class MalformedCellException extends IllegalArgumentException {
  public MalformedCellException(String message) {
    super(message);
  }

  public MalformedCellException(String message, Throwable cause) {
    super(message, cause);
  }
}
