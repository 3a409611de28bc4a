package org.tonpayouts.devnet.chain;

import static org.assertj.core.api.Assertions.assertThat;
import static org.tonpayouts.devnet.chain.Ton4jMessageCells.cell;
import static org.tonpayouts.devnet.chain.Ton4jMessageCells.hex;

import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.ton.ton4j.cell.Cell;
import org.tonpayouts.ton.cell.TonCell;
import org.tonpayouts.ton.wallet.TextComment;

/**
 * devnet's transaction cells and out-message dictionaries are the cells it built with ton4j
 * ({@link Ton4jTransactionCell}): same hashes over randomized phases (skipped and VM compute
 * phases, applied, aborted and absent action phases, ok and no-funds bounce phases, deleted and
 * destroyed accounts, zero and large fees) and dictionaries of 1 to 300 messages; each side reads
 * the other's BOC back to the same cell.
 */
class TransactionCellEquivalenceTest {
  private final Random random = new Random(20260501L);
  private final List<TonCell> messages = InternalMessageEquivalenceTest.bodies();

  @Test
  void shouldBuildTheTransactionCellsTon4jBuilt() {
    for (int i = 0; i < 2_000; i++) {
      byte[] account = bytes(32);
      long lt = random.nextLong() >>> 1;
      String prevHash = HexFormat.of().formatHex(bytes(32));
      long prevLt = random.nextLong() >>> 1;
      long now = random.nextLong() >>> 32;
      AccountState orig = AccountState.values()[random.nextInt(3)];
      AccountState end = AccountState.values()[random.nextInt(3)];
      TonCell in = message();
      List<TonCell> outs = new ArrayList<>();
      for (int k = random.nextInt(6); k > 0; k--) {
        outs.add(message());
      }
      long fees = amount();
      byte[] oldState = bytes(32);
      byte[] newState = bytes(32);
      TransactionPhases phases = phases();

      TonCell actual = TransactionCell.build(account, lt, prevHash, prevLt, now, orig, end, in, outs, fees, oldState,
          newState, phases);
      Cell expected = Ton4jTransactionCell.build(account, lt, prevHash, prevLt, now, orig, end, cell(in), cells(outs),
          fees, oldState, newState, phases);

      assertThat(actual.hashHex()).as("%s with %d out messages", phases, outs.size()).isEqualTo(hex(expected));
      assertThat(hex(Cell.fromBoc(actual.toBoc()))).isEqualTo(actual.hashHex());
      assertThat(TonCell.fromBoc(expected.toBoc(true))).isEqualTo(actual);
    }
  }

  @Test
  void shouldBuildTheDictionariesTon4jBuilt() {
    List<TonCell> values = new ArrayList<>();
    for (int n = 1; n <= 300; n++) {
      values.add(TextComment.encode("message " + n));
      assertThat(Hashmap15.of(values).hashHex()).as("%d messages", n)
          .isEqualTo(hex(Ton4jTransactionCell.hashmap15(cells(values))));
    }
  }

  private TransactionPhases phases() {
    TransactionPhases.Compute compute = random.nextInt(4) == 0
        ? TransactionPhases.Compute.noState()
        : new TransactionPhases.Compute(false, random.nextBoolean(), random.nextBoolean(), random.nextBoolean(),
            amount(), random.nextInt(1 << 20), random.nextInt(1 << 24), random.nextBoolean() ? null : 10_000L,
            random.nextInt() >> random.nextInt(32), random.nextInt(1000));
    TransactionPhases.Action action = random.nextInt(3) == 0 ? null
        : new TransactionPhases.Action(random.nextBoolean(), random.nextBoolean(), random.nextBoolean(),
            random.nextBoolean(), random.nextBoolean() ? 0 : amount(), random.nextBoolean() ? 0 : amount(),
            random.nextInt(64) - 8,
            random.nextBoolean() ? null : random.nextInt(255), random.nextInt(256), random.nextInt(4),
            random.nextInt(256), bytes(32), random.nextInt(5000), random.nextInt(1 << 20));
    TransactionPhases.Bounce bounce = switch (random.nextInt(3)) {
      case 0 -> null;
      case 1 -> new TransactionPhases.Bounce(true, random.nextInt(10), random.nextInt(10_000), amount(), amount());
      default -> new TransactionPhases.Bounce(false, 0, 0, 0, amount());
    };
    return new TransactionPhases(random.nextBoolean(), random.nextBoolean() ? null : amount(), compute, action, bounce,
        random.nextBoolean());
  }

  /** Zero, small or up to 2^62 nanotons. */
  private long amount() {
    return switch (random.nextInt(3)) {
      case 0 -> 0;
      case 1 -> random.nextInt(1_000_000_000);
      default -> random.nextLong() >>> 2;
    };
  }

  private TonCell message() {
    return messages.get(random.nextInt(messages.size()));
  }

  private byte[] bytes(int n) {
    byte[] bytes = new byte[n];
    random.nextBytes(bytes);
    return bytes;
  }

  private static List<Cell> cells(List<TonCell> cells) {
    return cells.stream().map(Ton4jMessageCells::cell).toList();
  }
}
