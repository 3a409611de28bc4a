package org.tonpayouts.devnet.chain;

import org.tonpayouts.ton.cell.CellReader;
import org.tonpayouts.ton.cell.MalformedCellException;
import org.tonpayouts.ton.cell.TonCell;

/**
 * A StateInit a message carries, read from its cell: the code and data a deploy installs.
 *
 * @param cell the StateInit cell (its hash is the address it deploys to)
 * @param code the code cell, or {@code null}
 * @param data the data cell, or {@code null}
 */
public record StateInitCell(TonCell cell, TonCell code, TonCell data) {
  /**
   * Reads {@code split_depth:(Maybe (## 5)) special:(Maybe TickTock) code:(Maybe ^Cell)
   * data:(Maybe ^Cell) library:(Maybe ^Cell)}; {@link MalformedCellException} when the cell is
   * not exactly that (the node refuses a StateInit with bits or references left over).
   */
  static StateInitCell read(TonCell cell) {
    CellReader r = cell.parse();
    if (r.loadBit()) {
      r.skipBits(5);                         // split_depth
    }
    if (r.loadBit()) {
      r.skipBits(2);                         // special: tick, tock
    }
    TonCell code = r.loadBit() ? r.loadRef() : null;
    TonCell data = r.loadBit() ? r.loadRef() : null;
    if (r.loadBit()) {
      r.loadRef();                           // library
    }
    if (r.remainingBits() != 0 || r.remainingRefs() != 0) {
      throw new MalformedCellException("StateInit has " + r.remainingBits() + " bits and " + r.remainingRefs()
          + " references left over");
    }
    return new StateInitCell(cell, code, data);
  }
}
