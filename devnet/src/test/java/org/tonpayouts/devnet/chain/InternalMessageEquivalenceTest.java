package org.tonpayouts.devnet.chain;

import static org.assertj.core.api.Assertions.assertThat;
import static org.tonpayouts.devnet.chain.Ton4jMessageCells.cell;
import static org.tonpayouts.devnet.chain.Ton4jMessageCells.hex;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.ton.ton4j.cell.Cell;
import org.ton.ton4j.cell.CellSlice;
import org.ton.ton4j.tlb.StateInit;
import org.tonpayouts.ton.address.TonAddress;
import org.tonpayouts.ton.cell.CellWriter;
import org.tonpayouts.ton.cell.MessageCells;
import org.tonpayouts.ton.cell.TonCell;
import org.tonpayouts.ton.keys.WalletKey;
import org.tonpayouts.ton.wallet.Subwallets;
import org.tonpayouts.ton.wallet.TextComment;

/**
 * The internal messages and bounced bodies devnet writes are the cells ton4j's
 * {@code Message.toCell} wrote for it ({@link Ton4jMessageCells}): same hashes, and each side
 * reads the other's BOC back to the same cell. Bodies of every size around the inline/reference
 * boundary, with and without references and StateInits, flags, zero and large amounts.
 */
class InternalMessageEquivalenceTest {
  private static final TonAddress SOURCE = address(0, 1);
  private static final TonAddress MASTER = address(-1, 2);
  private static final TonAddress DESTINATION = address(0, 3);

  private record Amounts(long value, long fwdFee, long createdLt, long createdAt) {}

  private static final List<Amounts> AMOUNTS = List.of(
      new Amounts(0, 0, 0, 0),
      new Amounts(1_000_000_000L, 400_000, 1_000_001, 1_780_000_000L),
      new Amounts((1L << 62) - 1, Long.MAX_VALUE, Long.MAX_VALUE, 0xFFFF_FFFFL));

  @Test
  void shouldWriteInternalMessagesAsTon4jDid() {
    int compared = 0;
    int ton4jCouldNot = 0;
    for (TonCell init : inits()) {
      for (TonCell body : bodies()) {
        for (Amounts a : AMOUNTS) {
          for (int flags = 0; flags < 4; flags++) {
            boolean bounce = (flags & 1) != 0;
            boolean bounced = (flags & 2) != 0;
            TonAddress source = flags == 3 ? MASTER : SOURCE;
            DevnetMessage actual = ChainMessages.internal(source, DESTINATION, a.value(), bounce, bounced, a.fwdFee(),
                a.createdLt(), a.createdAt(), body, init);
            Cell expected;
            try {
              expected = Ton4jMessageCells.internal(source, DESTINATION, a.value(), bounce, bounced, a.fwdFee(),
                  a.createdLt(), a.createdAt(), cell(body), stateInit(init));
            } catch (RuntimeException | Error e) {
              // ton4j tried the body inline when it exactly filled the bits left, without room for its flag
              ton4jCouldNot++;
              assertThat(bodyInReference(actual.cell())).as("a body that does not fit goes to a reference").isTrue();
              assertThat(MessageCells.readInternal(actual.cell()).body()).isEqualTo(body);
              continue;
            }
            assertThat(actual.hash()).as("init %s body %s amounts %s flags %d", init, body, a, flags)
                .isEqualTo(hex(expected));
            assertThat(hex(Cell.fromBoc(actual.cell().toBoc()))).isEqualTo(actual.hash());
            assertThat(TonCell.fromBoc(expected.toBoc(true)).hashHex()).isEqualTo(actual.hash());
            assertThat(actual.bodyHash()).isEqualTo(body.hashHex());
            compared++;
          }
        }
      }
    }
    assertThat(compared).isGreaterThan(15_000);
    assertThat(ton4jCouldNot).as("the boundary ton4j could not write is exercised").isPositive();
  }

  @Test
  void shouldBounceTheBodiesTon4jBounced() {
    for (TonCell body : bodies()) {
      assertThat(ChainMessages.bouncedBody(body).hashHex()).as("%s", body)
          .isEqualTo(hex(Ton4jMessageCells.bouncedBody(cell(body))));
    }
  }

  /** The message's last bit is the body's Either flag when the body is its last reference. */
  private static boolean bodyInReference(TonCell message) {
    return message.refCount() > 0 && message.bit(message.bitLength() - 1);
  }

  private static StateInit stateInit(TonCell init) {
    return init == null ? null : StateInit.deserialize(CellSlice.beginParse(cell(init)));
  }

  /** No StateInit, a wallet's, and one with every optional field present. */
  private static List<TonCell> inits() {
    TonCell wallet = new Subwallets(WalletKey.fromSeed(new byte[32]), TonAddress.BASECHAIN).stateInit(7);
    TonCell everything = TonCell.builder()
        .storeBit(true).storeUint(5, 5)                              // split_depth
        .storeBit(true).storeBit(true).storeBit(false)               // special: tick
        .storeBit(true).storeRef(Subwallets.code())
        .storeBit(true).storeRef(TextComment.encode("data"))
        .storeBit(true).storeRef(TextComment.encode("library"))
        .endCell();
    return Arrays.asList(null, wallet, everything);
  }

  /**
   * The empty body, comments (short, one full cell, snake), and raw bodies of every bit length
   * from 0 to 1023 in steps (every length where the inline/reference boundary falls) with 0 to 4
   * references.
   */
  static List<TonCell> bodies() {
    List<TonCell> bodies = new ArrayList<>(List.of(TonCell.EMPTY, TextComment.encode("payout #1"),
        TextComment.encode("x".repeat(123)), TextComment.encode("snake ".repeat(100))));
    for (int bits = 0; bits <= TonCell.MAX_BITS; bits += bits >= 250 && bits <= 450 ? 1 : 29) {
      for (int refs = 0; refs <= TonCell.MAX_REFS; refs += bits >= 250 && bits <= 450 ? 4 : 1) {
        bodies.add(rawBody(bits, refs));
      }
    }
    return bodies;
  }

  private static TonCell rawBody(int bits, int refs) {
    CellWriter b = TonCell.builder();
    for (int i = 0; i < bits; i++) {
      b.storeBit((i * 7 + bits) % 3 == 0);
    }
    for (int r = 0; r < refs; r++) {
      b.storeRef(TextComment.encode("ref " + r));
    }
    return b.endCell();
  }

  static TonAddress address(int workchain, int n) {
    byte[] hash = new byte[32];
    Arrays.fill(hash, (byte) (0x11 * n));
    hash[31] = (byte) n;
    return TonAddress.of(workchain, hash);
  }
}
