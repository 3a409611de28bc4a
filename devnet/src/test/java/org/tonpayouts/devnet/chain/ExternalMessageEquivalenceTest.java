package org.tonpayouts.devnet.chain;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;
import static org.tonpayouts.devnet.chain.InternalMessageEquivalenceTest.address;
import static org.tonpayouts.devnet.chain.Ton4jMessageCells.cell;
import static org.tonpayouts.devnet.chain.Ton4jMessageCells.hex;

import java.math.BigInteger;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.ton.ton4j.cell.Cell;
import org.ton.ton4j.cell.CellBuilder;
import org.ton.ton4j.tlb.ExternalMessageInInfo;
import org.ton.ton4j.tlb.MsgAddressExtNone;
import org.tonpayouts.ton.address.TonAddress;
import org.tonpayouts.ton.cell.CellWriter;
import org.tonpayouts.ton.cell.MessageCells;
import org.tonpayouts.ton.cell.TonCell;
import org.tonpayouts.ton.keys.WalletKey;
import org.tonpayouts.ton.wallet.Subwallets;
import org.tonpayouts.ton.wallet.TextComment;

/**
 * devnet reads sendBoc payloads and wallet orders as it did with ton4j ({@link Ton4jMessageCells}):
 * the same hashes, normalized hashes, StateInits, bodies, signed parts and orders for every
 * layout (StateInit and body inline or in references, 0 to 4 orders of every kind), and the same
 * verdict on garbage, except where the node itself is stricter than ton4j was: a bad CRC32C, bytes
 * after the BOC, bits after a body kept in a reference, a StateInit with bits left over. devnet's own cells (foreign
 * transfers, account state hashes, wallet data, action lists) are the ones ton4j built.
 */
class ExternalMessageEquivalenceTest {
  private static final WalletKey KEY = WalletKey.fromSeed(new byte[32]);
  private static final TonCell STATE_INIT = new Subwallets(KEY, TonAddress.BASECHAIN).stateInit(7);
  private static final TonAddress WALLET = TonAddress.of(0, STATE_INIT.hash());
  private static final TonAddress USER = address(0, 5);
  /** What the node refuses and ton4j let through. */
  private static final List<String> STRICTER = List.of("CRC32C mismatch", "bytes after its end",
      "bits or references after a body kept in a reference", "StateInit has");

  private final Random random = new Random(7);

  @Test
  void shouldReadWellFormedMessagesAsTon4jDid() throws Exception {
    int compared = 0;
    for (int orders = 0; orders <= 4; orders++) {
      for (int layout = 0; layout < 6; layout++) {
        TonCell init = layout < 2 ? null : STATE_INIT;
        boolean initInRef = layout >= 4;
        boolean bodyInRef = layout % 2 == 1;
        byte[] boc = external(WALLET, init, initInRef, walletBody(orders), bodyInRef);
        if (boc == null) {
          continue; // does not fit in one cell
        }
        assertSameReading(boc);
        compared++;
      }
    }
    assertThat(compared).isGreaterThanOrEqualTo(25);
  }

  @Test
  void shouldDecodeWalletOrdersAsTon4jDid() {
    for (TonCell order : orders()) {
      Ton4jMessageCells.Order expected = Ton4jMessageCells.order(cell(order));
      ActionPhase.Plan all = ActionPhase.plan(List.of(new WalletV4R2.Action(128, order)), Long.MAX_VALUE - 1);
      if (expected.error() != null) {
        assertThat(all.failure).as("%s: ton4j refused it (%s)", order, expected.error()).isNotNull();
        assertThat(all.failureCode).isEqualTo(ActionPhase.RESULT_INVALID_MESSAGE);
        continue;
      }
      if (all.failure != null) {
        assertThat(all.failure).as("%s: only the node's stricter reading refuses what ton4j read", order)
            .containsAnyOf(STRICTER.toArray(String[]::new));
        continue;
      }
      ActionPhase.Send send = all.sends.get(0);
      assertThat(send.destination()).isEqualTo(expected.destination());
      assertThat(send.bounce()).isEqualTo(expected.bounce());
      assertThat(send.body().hashHex()).isEqualTo(hex(expected.body()));
      assertThat(send.init() == null ? null : send.init().hashHex())
          .isEqualTo(expected.init() == null ? null : hex(expected.init().toCell()));
      ActionPhase.Plan separate = ActionPhase.plan(List.of(new WalletV4R2.Action(1, order)), Long.MAX_VALUE - 1);
      assertThat(separate.sends.get(0).value()).isEqualTo(expected.value());
    }
  }

  @Test
  void shouldRefuseTheGarbageTon4jRefused() throws Exception {
    List<byte[]> garbage = new ArrayList<>();
    byte[] valid = external(WALLET, STATE_INIT, false, walletBody(2), false);
    for (int length = 0; length < valid.length; length++) {
      garbage.add(Arrays.copyOf(valid, length));
    }
    for (int i = 0; i < valid.length * 8; i += 3) {
      byte[] flipped = valid.clone();
      flipped[i / 8] ^= (byte) (0x80 >>> (i % 8));
      garbage.add(flipped);
    }
    for (int i = 0; i < 200; i++) {
      byte[] bytes = new byte[random.nextInt(300)];
      random.nextBytes(bytes);
      garbage.add(bytes);
    }
    garbage.add(TonCell.builder().storeUint(0, 1).storeAddress(USER).endCell().toBoc()); // int_msg_info$0
    garbage.add(TonCell.builder().storeUint(0b11, 2).endCell().toBoc());                // ext_out_msg_info$11
    garbage.add(MessageCells.externalInfo(WALLET).storeBit(false).storeBit(true).storeRef(walletBody(1))
        .storeBit(true).endCell().toBoc());                                              // bits after the body's reference
    garbage.add(MessageCells.externalInfo(WALLET).storeBit(true).storeBit(true)
        .storeRef(TonCell.builder().storeCell(STATE_INIT).storeBit(true).endCell())
        .storeBit(false).storeCell(walletBody(0)).endCell().toBoc());                    // bits after the StateInit

    int stricter = 0;
    for (byte[] boc : garbage) {
      Ton4jMessageCells.External expected;
      try {
        expected = Ton4jMessageCells.external(boc);
      } catch (RuntimeException | Error e) {
        expected = null;
      }
      ExternalMessage actual;
      try {
        actual = ExternalMessage.parse(boc);
      } catch (MalformedMessageException e) {
        assertThat(e.getMessage()).isNotBlank();
        if (expected != null) {
          assertThat(e.getMessage()).as("only the node's stricter reading refuses what ton4j read")
              .containsAnyOf(STRICTER.toArray(String[]::new));
          stricter++;
        }
        continue;
      }
      if (expected == null) {
        fail("devnet accepts a BOC ton4j refused: " + Cells.hex(boc));
      }
      assertSameReading(boc);
    }
    assertThat(stricter).as("CRC flips, a trailing bit after the body, a trailing bit in the StateInit").isPositive();
  }

  @Test
  void shouldWriteForeignTransfersAsTon4jDid() {
    WalletData data = new WalletData(42, 698983191L, KEY.publicKey());
    for (String comment : Arrays.asList(null, "", "not ours", "long ".repeat(80))) {
      for (long amount : new long[] {1, 1_000_000_000L, (1L << 62) - 1}) {
        for (boolean bounce : new boolean[] {false, true}) {
          TonCell actual = new ForeignTransfer(WALLET, USER, amount, comment, bounce).externalMessage(data, 1_780_000_000L);
          assertThat(actual.hashHex()).isEqualTo(hex(Ton4jMessageCells.foreignTransfer(WALLET, USER, amount, comment,
              bounce, data, 1_780_000_000L)));
        }
      }
    }
  }

  @Test
  void shouldHashStatesAndActionListsAsTon4jDid() {
    WalletData wallet = new WalletData(0xFFFF_FFFFL, 3, KEY.publicKey());
    assertThat(WalletV4R2.CODE_HASH).isEqualTo(hex(Ton4jMessageCells.CODE));
    assertThat(WalletV4R2.dataCell(wallet).hashHex()).isEqualTo(hex(Ton4jMessageCells.dataCell(wallet)));
    assertThat(Account.NONE_STATE_HASH).isEqualTo(CellBuilder.beginCell().storeBit(false).endCell().getHash());
    for (AccountState state : List.of(AccountState.UNINITIALIZED, AccountState.ACTIVE)) {
      for (WalletData data : Arrays.asList(null, wallet)) {
        for (long balance : new long[] {0, 1, (1L << 62) - 1}) {
          Account account = new Account(WALLET);
          account.state = state;
          account.balance = balance;
          account.wallet = data;
          assertThat(account.stateHashWith(123_456_789L))
              .isEqualTo(Ton4jMessageCells.stateHash(state, balance, 123_456_789L, data));
        }
      }
    }
    List<WalletV4R2.Action> actions = new ArrayList<>();
    List<Integer> modes = new ArrayList<>();
    List<Cell> messages = new ArrayList<>();
    for (TonCell order : orders()) {
      assertThat(TransactionPhases.actionListHash(actions)).isEqualTo(Ton4jMessageCells.actionListHash(modes, messages));
      actions.add(new WalletV4R2.Action(actions.size() % 4, order));
      modes.add(modes.size() % 4);
      messages.add(cell(order));
    }
  }

  private static void assertSameReading(byte[] boc) throws Exception {
    Ton4jMessageCells.External expected = Ton4jMessageCells.external(boc);
    ExternalMessage actual = ExternalMessage.parse(boc);
    assertThat(actual.hash()).isEqualTo(expected.hash());
    assertThat(actual.normalizedHash()).isEqualTo(expected.normalizedHash());
    assertThat(actual.destination()).isEqualTo(expected.destination());
    assertThat(actual.body().hashHex()).isEqualTo(expected.bodyHash());
    MessageCells.StateInit init = actual.init();
    assertThat(init == null ? null : init.cell().hashHex()).isEqualTo(expected.initHash());
    assertThat(init == null || init.code() == null ? null : init.code().hashHex()).isEqualTo(expected.codeHash());
    assertThat(init == null || init.data() == null ? null : init.data().hashHex()).isEqualTo(expected.dataHash());
    assertThat(ChainMessages.externalIn(actual).hash()).isEqualTo(expected.hash());
    if (expected.signedHash() == null) {
      return;
    }
    WalletV4R2.Body body = WalletV4R2.parseBody(actual.body(), actual.destination());
    assertThat(Cells.hex(body.signedHash())).isEqualTo(expected.signedHash());
    List<WalletV4R2.Action> actions = WalletV4R2.parseActions(body, actual.destination());
    assertThat(actions).extracting(WalletV4R2.Action::mode).isEqualTo(expected.modes());
    assertThat(actions).extracting(a -> a.message().hashHex()).isEqualTo(expected.orders());
  }

  /** An external message built with ton4j; {@code null} when the layout asked for does not fit. */
  private static byte[] external(TonAddress destination, TonCell init, boolean initInRef, TonCell body,
                                 boolean bodyInRef) {
    try {
      CellBuilder b = CellBuilder.beginCell().storeCell(ExternalMessageInInfo.builder()
          .srcAddr(MsgAddressExtNone.builder().build())
          .dstAddr(Ton4jMessageCells.std(destination))
          .importFee(BigInteger.ZERO)
          .build()
          .toCell());
      if (init == null) {
        b.storeBit(false);
      } else if (initInRef) {
        b.storeBit(true).storeBit(true).storeRef(cell(init));
      } else {
        b.storeBit(true).storeBit(false).storeCell(cell(init));
      }
      if (bodyInRef) {
        b.storeBit(true).storeRef(cell(body));
      } else {
        b.storeBit(false).storeCell(cell(body));
      }
      return b.endCell().toBoc(true);
    } catch (RuntimeException | Error e) {
      return null;
    }
  }

  /** A V4R2 body (random signature) sending the first {@code count} of {@link #orders()} with assorted modes. */
  private TonCell walletBody(int count) {
    byte[] signature = new byte[64];
    random.nextBytes(signature);
    CellWriter b = TonCell.builder().storeBytes(signature)
        .storeUint(698983191L, 32).storeUint(1_780_000_060L, 32).storeUint(count, 32).storeUint(0, 8);
    List<TonCell> orders = orders();
    for (int i = 0; i < count; i++) {
      b.storeUint(new int[] {3, 0, 1, 128 + 32}[i], 8).storeRef(orders.get(i));
    }
    return b.endCell();
  }

  /** Orders of every kind a wallet may be asked to send, well-formed or not. */
  private static List<TonCell> orders() {
    TonCell comment = TextComment.encode("payout #1");
    List<TonCell> orders = new ArrayList<>();
    orders.add(order(false, USER, 1_000_000_000L, null, false, comment, true));
    orders.add(order(true, USER, 1, null, false, comment, false));
    orders.add(order(false, address(-1, 6), 0, STATE_INIT, false, comment, false));
    orders.add(order(true, USER, (1L << 62) - 1, STATE_INIT, true, TextComment.encode("x".repeat(200)), true));
    orders.add(order(false, USER, 1L << 62, null, false, TonCell.EMPTY, false));       // beyond any balance
    orders.add(info(false, null, 5).storeBit(false).storeBit(false).endCell());        // addr_none destination
    orders.add(TonCell.builder().storeUint(0b11, 2).endCell());                         // ext_out_msg_info$11
    orders.add(TonCell.builder().storeBit(false).endCell());                            // cut short
    orders.add(rest(TonCell.builder().storeUint(0b0100, 4).storeAddress(null)
        .storeUint(0b101, 3).storeUint(1, 5).storeBit(true).storeInt(0, 8).storeBytes(USER.hash())
        .storeCoins(5)));                                                               // anycast destination
    orders.add(info(false, USER, 5).storeBit(false).storeBit(true).storeRef(comment).storeBit(true).endCell());
    orders.add(info(false, USER, 5).storeBit(true).storeBit(true)
        .storeRef(TonCell.builder().storeCell(STATE_INIT).storeBit(false).endCell()).storeBit(false).endCell());
    orders.add(rest(TonCell.builder().storeUint(0b0100, 4).storeAddress(null).storeAddress(USER)
        .storeUint(9, 4).storeUint(1, 8).storeUint(0, 64)));                            // 9-byte value: beyond a long
    orders.add(TonCell.builder().storeUint(0b0100, 4).storeAddress(null).storeAddress(USER)
        .storeCoins(77).storeBit(true).storeRef(TextComment.encode("extra currencies"))
        .storeCoins(0).storeCoins(0).storeUint(0, 64).storeUint(0, 32).storeBit(false).storeBit(false).endCell());
    return orders;
  }

  /** The fields after the value, no StateInit, an empty body. */
  private static TonCell rest(CellWriter b) {
    return b.storeBit(false).storeCoins(0).storeCoins(0).storeUint(0, 64).storeUint(0, 32)
        .storeBit(false).storeBit(false).endCell();
  }

  /** {@code int_msg_info$0} as a wallet writes it (no source, no fees), up to the init flag. */
  private static CellWriter info(boolean bounce, TonAddress destination, long value) {
    return TonCell.builder().storeBit(false).storeBit(true).storeBit(bounce).storeBit(false)
        .storeAddress(null).storeAddress(destination).storeCoins(value).storeBit(false)
        .storeCoins(0).storeCoins(0).storeUint(0, 64).storeUint(0, 32);
  }

  private static TonCell order(boolean bounce, TonAddress destination, long value, TonCell init, boolean initInRef,
                               TonCell body, boolean bodyInRef) {
    CellWriter b = info(bounce, destination, value);
    if (init == null) {
      b.storeBit(false);
    } else if (initInRef) {
      b.storeBit(true).storeBit(true).storeRef(init);
    } else {
      b.storeBit(true).storeBit(false).storeCell(init);
    }
    return (bodyInRef ? b.storeBit(true).storeRef(body) : b.storeBit(false).storeCell(body)).endCell();
  }
}
