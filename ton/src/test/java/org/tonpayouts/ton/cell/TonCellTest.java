package org.tonpayouts.ton.cell;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.math.BigInteger;
import java.util.ArrayList;
import java.util.Base64;
import java.util.HexFormat;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.ton.ton4j.cell.Cell;
import org.ton.ton4j.cell.CellBuilder;
import org.ton.ton4j.cell.CellSlice;
import org.tonpayouts.ton.address.TonAddress;

/**
 * Our cells hash, serialize and read back exactly as ton4j's do: random trees are built twice, the
 * same operations on both libraries, and every hash, depth, bit and BOC round trip is compared.
 */
class TonCellTest {
  private static final HexFormat HEX = HexFormat.of();

  /** One write, applied to both builders. */
  private record Op(int kind, long value, int width, byte[] bytes) {}

  @ParameterizedTest(name = "seed {0}")
  @ValueSource(longs = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16})
  void randomTreesHashAndSerializeAsTon4jDoes(long seed) {
    Random random = new Random(seed);
    for (int tree = 0; tree < 25; tree++) {
      Pair pair = randomTree(random, 0);

      assertThat(pair.ours.hashHex()).isEqualTo(HEX.formatHex(pair.theirs.getHash()));
      // ton4j reads our BOC as the same tree, and we read its BOC (breadth-first, other flags) as ours
      assertThat(HEX.formatHex(Cell.fromBoc(pair.ours.toBoc()).getHash())).isEqualTo(pair.ours.hashHex());
      assertThat(TonCell.fromBoc(pair.theirs.toBoc(true)).hashHex()).isEqualTo(pair.ours.hashHex());
      assertThat(TonCell.fromBoc(pair.theirs.toBoc(false)).hashHex()).isEqualTo(pair.ours.hashHex());
      assertThat(TonCell.fromBoc(pair.theirs.toBoc(true, true)).hashHex()).isEqualTo(pair.ours.hashHex());
      assertThat(TonCell.fromBoc(pair.ours.toBoc())).isEqualTo(pair.ours);
      assertSameBits(pair.ours, pair.theirs);
    }
  }

  private record Pair(TonCell ours, Cell theirs) {}

  private static Pair randomTree(Random random, int level) {
    CellWriter ours = TonCell.builder();
    CellBuilder theirs = CellBuilder.beginCell();
    int budget = random.nextInt(TonCell.MAX_BITS + 1);
    while (true) {
      Op op = randomOp(random);
      int need = switch (op.kind) {
        case 0 -> 1;
        case 1, 2 -> op.width;
        case 3 -> op.bytes.length * 8;
        default -> 4 + 8 * ((64 - Long.numberOfLeadingZeros(op.value) + 7) / 8);
      };
      if (ours.bitLength() + need > budget) {
        break;
      }
      apply(op, ours, theirs);
    }
    int refs = level >= 4 ? 0 : random.nextInt(TonCell.MAX_REFS + 1);
    for (int i = 0; i < refs; i++) {
      Pair child = random.nextInt(5) == 0 && i > 0 ? null : randomTree(random, level + 1);
      if (child == null) {
        // a repeated child: the BOC must hold it once (and both libraries agree on the hash)
        ours.storeRef(ours.refCount() > 0 ? lastRef(ours) : TonCell.EMPTY);
        theirs.storeRef(Cell.fromBoc(lastRef(ours).toBoc()));
      } else {
        ours.storeRef(child.ours);
        theirs.storeRef(child.theirs);
      }
    }
    return new Pair(ours.endCell(), theirs.endCell());
  }

  private static TonCell lastRef(CellWriter writer) {
    TonCell built = writer.endCell();
    return built.ref(built.refCount() - 1);
  }

  private static Op randomOp(Random random) {
    int kind = random.nextInt(5);
    return switch (kind) {
      case 0 -> new Op(0, random.nextInt(2), 1, null);
      case 1 -> {
        int width = 1 + random.nextInt(64);
        long value = random.nextLong();
        yield new Op(1, width == 64 ? value : value & ((1L << width) - 1), width, null);
      }
      case 2 -> {
        int width = 1 + random.nextInt(63);
        long value = random.nextLong() >> (64 - width);
        yield new Op(2, value, width, null);
      }
      case 3 -> {
        byte[] bytes = new byte[random.nextInt(40)];
        random.nextBytes(bytes);
        yield new Op(3, 0, 0, bytes);
      }
      default -> new Op(4, random.nextBoolean() ? random.nextLong() & Long.MAX_VALUE : random.nextInt(1000), 0, null);
    };
  }

  private static void apply(Op op, CellWriter ours, CellBuilder theirs) {
    switch (op.kind) {
      case 0 -> {
        ours.storeBit(op.value == 1);
        theirs.storeBit(op.value == 1);
      }
      case 1 -> {
        ours.storeUint(op.value, op.width);
        theirs.storeUint(new BigInteger(Long.toUnsignedString(op.value)), op.width);
      }
      case 2 -> {
        ours.storeInt(op.value, op.width);
        theirs.storeInt(BigInteger.valueOf(op.value), op.width);
      }
      case 3 -> {
        ours.storeBytes(op.bytes);
        theirs.storeBytes(op.bytes);
      }
      default -> {
        ours.storeCoins(op.value);
        theirs.storeCoins(BigInteger.valueOf(op.value));
      }
    }
  }

  private static void assertSameBits(TonCell ours, Cell theirs) {
    assertThat(ours.bitLength()).isEqualTo(theirs.getBitLength());
    CellSlice slice = CellSlice.beginParse(theirs);
    for (int i = 0; i < ours.bitLength(); i++) {
      assertThat(ours.bit(i)).as("bit %d", i).isEqualTo(slice.loadBit());
    }
    assertThat(ours.refCount()).isEqualTo(theirs.getRefs().size());
    for (int i = 0; i < ours.refCount(); i++) {
      assertSameBits(ours.ref(i), theirs.getRefs().get(i));
    }
  }

  @Test
  void readsBackWhatWasWritten() {
    TonAddress address = TonAddress.parse("-1:" + "ab".repeat(32));
    TonCell child = TonCell.builder().storeUint(7, 3).endCell();
    TonCell cell = TonCell.builder()
        .storeBit(true)
        .storeUint(0xFFFF_FFFFL, 32)
        .storeInt(-5, 7)
        .storeInt(Long.MIN_VALUE, 64)
        .storeUint(-1L, 64)
        .storeCoins(1_000_000_007L)
        .storeCoins(0)
        .storeVarUint(300, 7)
        .storeAddress(address)
        .storeAddress(null)
        .storeBytes(new byte[] {1, 2, 3})
        .storeRef(child)
        .endCell();

    CellReader r = cell.parse();
    assertThat(r.loadBit()).isTrue();
    assertThat(r.loadUint(32)).isEqualTo(0xFFFF_FFFFL);
    assertThat(r.loadInt(7)).isEqualTo(-5);
    assertThat(r.loadInt(64)).isEqualTo(Long.MIN_VALUE);
    assertThat(r.loadUint(64)).isEqualTo(-1L);
    assertThat(r.loadCoins()).isEqualTo(1_000_000_007L);
    assertThat(r.loadCoins()).isZero();
    assertThat(r.loadVarUint(7)).isEqualTo(300);
    assertThat(r.loadAddress()).isEqualTo(address);
    assertThat(r.loadAddress()).isNull();
    assertThat(r.loadBytes(3)).containsExactly(1, 2, 3);
    assertThat(r.remainingBits()).isZero();
    assertThat(r.loadRef()).isEqualTo(child);
    assertThatThrownBy(r::loadBit).isInstanceOf(MalformedCellException.class).hasMessageContaining("cell underflow");
    assertThatThrownBy(r::loadRef).isInstanceOf(MalformedCellException.class).hasMessageContaining("no reference left");
  }

  @Test
  void bitsStoredAndLoadedAtEveryOffsetComeBackUnchanged() {
    Random random = new Random(42);
    for (int offset = 0; offset < 16; offset++) {
      for (int from = 0; from < 16; from++) {
        byte[] source = new byte[40];
        random.nextBytes(source);
        int count = random.nextInt(source.length * 8 - from + 1);
        TonCell cell = TonCell.builder().storeUint(0, offset).storeBits(source, from, count).endCell();
        CellReader reader = cell.parse().skipBits(offset);

        byte[] loaded = reader.loadBits(count);

        for (int i = 0; i < count; i++) {
          boolean expected = (source[(from + i) >>> 3] & (0x80 >>> ((from + i) & 7))) != 0;
          assertThat(cell.bit(offset + i)).as("stored bit %d (offset %d, from %d)", i, offset, from).isEqualTo(expected);
          assertThat((loaded[i >>> 3] & (0x80 >>> (i & 7))) != 0).as("loaded bit %d", i).isEqualTo(expected);
        }
        for (int i = count; i < loaded.length * 8; i++) {
          assertThat((loaded[i >>> 3] & (0x80 >>> (i & 7))) != 0).as("padding bit %d", i).isFalse();
        }
        assertThat(cell.bitLength()).isEqualTo(offset + count);
      }
    }
  }

  @Test
  void restKeepsUnreadBitsAndReferencesAtAnyOffset() {
    TonCell a = TonCell.builder().storeUint(1, 1).endCell();
    TonCell b = TonCell.builder().storeUint(2, 2).endCell();
    TonCell cell = TonCell.builder().storeUint(0b10110, 5).storeBytes(new byte[] {(byte) 0xC3, 0x5A}).storeRef(a)
        .storeRef(b).endCell();
    CellReader r = cell.parse();
    r.loadUint(5);
    r.loadRef();

    TonCell rest = r.rest();

    assertThat(rest.bitLength()).isEqualTo(16);
    assertThat(rest.dataBytes()).containsExactly((byte) 0xC3, 0x5A);
    assertThat(rest.refs()).containsExactly(b);
    Cell ton4jRest = CellBuilder.beginCell().storeSlice(
        CellSlice.beginParse(Cell.fromBoc(cell.toBoc())).skipBits(5)).endCell();
    assertThat(rest.refCount()).isEqualTo(1); // the reader had taken one; ton4j's skipBits keeps both
    assertThat(ton4jRest.getBitLength()).isEqualTo(16);
  }

  @Test
  void writerRefusesWhatDoesNotFit() {
    assertThatThrownBy(() -> TonCell.builder().storeUint(8, 3)).hasMessageContaining("does not fit in 3 unsigned bits");
    assertThatThrownBy(() -> TonCell.builder().storeInt(64, 7)).hasMessageContaining("does not fit in 7 signed bits");
    assertThatThrownBy(() -> TonCell.builder().storeBytes(new byte[128])).hasMessageContaining("do not fit in a cell");
    assertThatThrownBy(() -> TonCell.builder().storeCoins(-1)).hasMessageContaining("cannot be negative");
    CellWriter full = TonCell.builder();
    for (int i = 0; i < 4; i++) {
      full.storeRef(TonCell.EMPTY);
    }
    assertThatThrownBy(() -> full.storeRef(TonCell.EMPTY)).hasMessageContaining("at most 4 references");
    assertThat(TonCell.builder().storeBits(new byte[128], 0, 1023).endCell().bitLength()).isEqualTo(1023);
  }

  @Test
  void emptyCellHasTheWellKnownHash() {
    assertThat(TonCell.EMPTY.hashHex()).isEqualTo(HEX.formatHex(CellBuilder.beginCell().endCell().getHash()))
        .isEqualTo("96a296d224f285c67bee93c30f8a309157f0daa35dc5b87e410b78630a09cfc7");
  }

  @Test
  void bigCoinsMatchTon4j() {
    BigInteger big = BigInteger.TWO.pow(119).add(BigInteger.valueOf(12345));
    TonCell ours = TonCell.builder().storeCoins(big).endCell();
    Cell theirs = CellBuilder.beginCell().storeCoins(big).endCell();
    assertThat(ours.hashHex()).isEqualTo(HEX.formatHex(theirs.getHash()));
    assertThat(ours.parse().loadBigCoins()).isEqualTo(big);
    assertThatThrownBy(() -> ours.parse().loadCoins()).isInstanceOf(MalformedCellException.class);
  }

  @Test
  void malformedBocsAreRefusedWithAReason() {
    byte[] good = TonCell.builder().storeUint(5, 8).storeRef(TonCell.EMPTY).endCell().toBoc();
    List<byte[]> bad = new ArrayList<>();
    bad.add(new byte[0]);
    bad.add(new byte[] {1, 2, 3});
    bad.add(java.util.Arrays.copyOf(good, good.length - 1));
    byte[] trailing = java.util.Arrays.copyOf(good, good.length + 1);
    bad.add(trailing);
    for (int i = 0; i < good.length; i++) {
      byte[] flipped = good.clone();
      flipped[i] ^= 0x10;
      bad.add(flipped);
    }
    for (byte[] boc : bad) {
      assertThatThrownBy(() -> TonCell.fromBoc(boc)).isInstanceOf(MalformedCellException.class)
          .satisfies(e -> assertThat(e.getMessage()).isNotBlank());
    }
    assertThatThrownBy(() -> TonCell.fromBase64("not base64!")).isInstanceOf(MalformedCellException.class)
        .hasMessageStartingWith("not base64");
  }

  @Test
  void aCellCannotReferenceItselfOrAnEarlierCell() {
    // no CRC, two cells: cell 0 references cell 0
    byte[] selfRef = HEX.parseHex("b5ee9c72" + "01" + "01" + "01" + "01" + "00" + "03" + "00" + "010000");
    assertThatThrownBy(() -> TonCell.fromBoc(selfRef)).isInstanceOf(MalformedCellException.class)
        .hasMessageContaining("references cell 0");
  }

  @Test
  void treesDeeperThanTheChainAllowsAreRefused() {
    TonCell chain = TonCell.EMPTY;
    for (int i = 0; i < TonCell.MAX_DEPTH; i++) {
      chain = TonCell.builder().storeRef(chain).endCell();
    }
    assertThat(chain.depth()).isEqualTo(TonCell.MAX_DEPTH);
    assertThat(TonCell.fromBoc(chain.toBoc())).isEqualTo(chain);
    TonCell deepest = chain;
    assertThatThrownBy(() -> TonCell.builder().storeRef(deepest).endCell())
        .isInstanceOf(MalformedCellException.class).hasMessageContaining("deeper than 1024");
  }

  @Test
  void serializesAsTheJsSdkDoes() {
    // @ton/core: beginCell().storeUint(1, 8).storeRef(beginCell().storeUint(2, 8).storeRef(c3)).storeRef(c3)
    // with c3 = beginCell().storeUint(3, 8): one c3 in the BOC, depth-first order (root, child, c3)
    TonCell c3 = TonCell.builder().storeUint(3, 8).endCell();
    TonCell root = TonCell.builder().storeUint(1, 8)
        .storeRef(TonCell.builder().storeUint(2, 8).storeRef(c3).endCell())
        .storeRef(c3)
        .endCell();
    byte[] boc = root.toBoc();
    assertThat(HEX.formatHex(boc, 0, boc.length - 4))
        .isEqualTo("b5ee9c72" + "41" + "01" + "03" + "01" + "00" + "0c" + "00"
            + "0202010102" + "01020202" + "000203");
    assertThat(TonCell.fromBoc(boc)).isEqualTo(root);
    assertThat(Base64.getEncoder().encodeToString(boc)).isEqualTo(root.toBase64());
  }
}
