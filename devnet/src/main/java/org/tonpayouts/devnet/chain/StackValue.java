package org.tonpayouts.devnet.chain;

import java.math.BigInteger;
import java.util.Objects;
import org.tonpayouts.ton.address.TonAddress;
import org.tonpayouts.ton.cell.CellReader;
import org.tonpayouts.ton.cell.TonCell;

/** One TVM stack entry of a get-method's arguments or result: an integer, a cell or a slice. */
public sealed interface StackValue {
  record Num(BigInteger value) implements StackValue {
    public Num {
      Objects.requireNonNull(value, "value");
    }
  }

  record Cell(TonCell cell) implements StackValue {
    public Cell {
      Objects.requireNonNull(cell, "cell");
    }
  }

  /** A slice: the whole of {@code cell} (toncenter passes and returns slices as the BOC of a cell). */
  record Slice(TonCell cell) implements StackValue {
    public Slice {
      Objects.requireNonNull(cell, "cell");
    }
  }

  static Num num(long value) {
    return new Num(BigInteger.valueOf(value));
  }

  static Num num(BigInteger value) {
    return new Num(value);
  }

  /** A slice holding one address ({@code addr_none} for {@code null}), as get-methods return addresses. */
  static Slice address(TonAddress address) {
    return new Slice(TonCell.builder().storeAddress(address).endCell());
  }

  /** The address at the start of this slice or cell; {@link org.tonpayouts.ton.cell.MalformedCellException} when there is none. */
  default TonAddress loadAddress() {
    TonCell cell;
    if (this instanceof Slice s) {
      cell = s.cell();
    } else if (this instanceof Cell c) {
      cell = c.cell();
    } else {
      throw new IllegalStateException("an integer is not a slice");
    }
    CellReader reader = cell.parse();
    return reader.loadAddress();
  }
}
