package org.tonpayouts.ton.wallet;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.math.BigInteger;
import java.time.Instant;
import java.util.Base64;
import java.util.HexFormat;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.ton.ton4j.cell.Cell;
import org.ton.ton4j.cell.CellBuilder;
import org.ton.ton4j.cell.CellSlice;
import org.ton.ton4j.tlb.ExternalMessageInInfo;
import org.ton.ton4j.tlb.Message;
import org.ton.ton4j.tlb.MsgAddressExtNone;
import org.ton.ton4j.tlb.MsgAddressIntStd;
import org.tonpayouts.ton.address.TonAddress;
import org.tonpayouts.ton.cell.TonCell;
import org.tonpayouts.ton.keys.WalletKey;

/** A signed transfer parses back to exactly what was asked, and its signature holds only untouched. */
class TransferRoundTripTest {
  static final WalletKey KEY = WalletKey.fromSeedHex(Vectors.key("seed").seedHex());
  static final Subwallets SUBWALLETS = new Subwallets(KEY, 0);
  static final TransferSigner SIGNER = new TransferSigner(SUBWALLETS);
  static final Instant VALID_UNTIL = Instant.parse("2026-01-01T00:00:00Z");
  static final TonAddress OWNER = TonAddress.parse("0:" + "11".repeat(32));
  static final TonAddress TREASURY = TonAddress.parse("-1:" + "22".repeat(32));
  static final String LONG_COMMENT = "Payout for invoice 2024-0042 — спасибо! 🚀 ".repeat(8);

  @Test
  void deployMessageCarriesStateInitAndEveryField() {
    List<TransferOrder> orders = List.of(
        new TransferOrder(OWNER, 2_500_000_000L, "escrow release", true),
        new TransferOrder(TREASURY, 50_000_000L, null, false),
        new TransferOrder(OWNER, 1L, LONG_COMMENT, false),
        new TransferOrder(TREASURY, Long.MAX_VALUE, "", true));

    SignedTransfer signed = SIGNER.sign(698983191L, 0, VALID_UNTIL, orders);
    ParsedTransfer parsed = TransferParser.parse(signed.boc());

    assertThat(LONG_COMMENT.getBytes(java.nio.charset.StandardCharsets.UTF_8).length).isGreaterThan(2 * 127);
    assertThat(parsed.wallet()).isEqualTo(SUBWALLETS.address(698983191L)).isEqualTo(signed.wallet());
    assertThat(parsed.hasStateInit()).isTrue();
    assertThat(parsed.stateInitHash()).isEqualTo(HexFormat.of().formatHex(SUBWALLETS.stateInit(698983191L).hash()));
    assertThat(parsed.subwalletId()).isEqualTo(698983191L);
    assertThat(parsed.validUntil()).isEqualTo(VALID_UNTIL.getEpochSecond());
    assertThat(parsed.seqno()).isZero();
    assertThat(parsed.op()).isZero();
    assertThat(parsed.orders()).containsExactly(
        new ParsedTransfer.ParsedOrder(3, OWNER, 2_500_000_000L, true, "escrow release"),
        new ParsedTransfer.ParsedOrder(3, TREASURY, 50_000_000L, false, null),
        new ParsedTransfer.ParsedOrder(3, OWNER, 1L, false, LONG_COMMENT),
        new ParsedTransfer.ParsedOrder(3, TREASURY, Long.MAX_VALUE, true, ""));
    assertThat(parsed.messageHash()).isEqualTo(signed.messageHash());
    assertThat(parsed.normalizedHash()).isEqualTo(signed.normalizedHash());
    assertThat(parsed.signatureValidFor(KEY.publicKey())).isTrue();
  }

  @Test
  void laterMessagesCarryNoStateInit() {
    SignedTransfer signed = SIGNER.sign(7L, 5, VALID_UNTIL, List.of(new TransferOrder(OWNER, 10L, "hi", false)));
    ParsedTransfer parsed = TransferParser.parse(signed.boc());

    assertThat(parsed.hasStateInit()).isFalse();
    assertThat(parsed.stateInitHash()).isNull();
    assertThat(parsed.seqno()).isEqualTo(5);
    assertThat(parsed.subwalletId()).isEqualTo(7);
    assertThat(parsed.wallet()).isEqualTo(SUBWALLETS.address(7L));
    assertThat(parsed.orders()).containsExactly(new ParsedTransfer.ParsedOrder(3, OWNER, 10L, false, "hi"));
    assertThat(parsed.signatureValidFor(KEY.publicKey())).isTrue();
  }

  @Test
  void longCommentIsASnakeOfFullCells() {
    TonCell body = TextComment.encode(LONG_COMMENT);
    byte[] utf8 = LONG_COMMENT.getBytes(java.nio.charset.StandardCharsets.UTF_8);

    // First cell: 32-bit op + 123 bytes; then 127 bytes per cell, one ref each.
    assertThat(body.bitLength()).isEqualTo(32 + 123 * 8);
    TonCell second = body.ref(0);
    assertThat(second.bitLength()).isEqualTo(127 * 8);
    int cells = 1;
    for (TonCell c = body; c.refCount() > 0; c = c.ref(0)) {
      assertThat(c.refCount()).isEqualTo(1);
      cells++;
    }
    assertThat(cells).isEqualTo(1 + (utf8.length - 123 + 126) / 127);
    assertThat(TextComment.decode(body)).isEqualTo(LONG_COMMENT);
    // ton4j reads the same text out of the same bytes
    CellSlice slice = CellSlice.beginParse(Cell.fromBoc(body.toBoc()));
    assertThat(slice.loadUint(32)).isZero();
    assertThat(new String(slice.loadBytes(123 * 8), java.nio.charset.StandardCharsets.UTF_8))
        .isEqualTo(new String(java.util.Arrays.copyOf(utf8, 123), java.nio.charset.StandardCharsets.UTF_8));
  }

  static List<Vectors.TransferVector> vectors() {
    return Vectors.transfers();
  }

  /** The parser also reads the JS SDK's messages: checks it against an implementation it did not write. */
  @ParameterizedTest(name = "{0}")
  @MethodSource("vectors")
  void parsesTheSdkMessages(Vectors.TransferVector v) {
    ParsedTransfer parsed = TransferParser.parse(v.boc());

    assertThat(parsed.wallet().toRaw()).isEqualTo(v.wallet());
    assertThat(parsed.subwalletId()).isEqualTo(v.subwalletId());
    assertThat(parsed.seqno()).isEqualTo(v.seqno());
    assertThat(parsed.validUntil()).isEqualTo(v.validUntil());
    assertThat(parsed.hasStateInit()).isEqualTo(v.seqno() == 0);
    assertThat(parsed.signature()).isEqualTo(v.signature());
    assertThat(parsed.signedHash()).isEqualTo(v.signedPartHash());
    assertThat(parsed.messageHash()).isEqualTo(v.messageHash());
    assertThat(parsed.normalizedHash()).isEqualTo(v.normalizedHash());
    assertThat(parsed.orders()).extracting(ParsedTransfer.ParsedOrder::mode).containsOnly(v.sendMode());
    assertThat(parsed.orders()).extracting(o -> new Vectors.OrderVector(
            o.destination().toRaw(), Long.toString(o.amountNano()), o.comment(), o.bounce()))
        .containsExactlyElementsOf(v.orders());
    assertThat(parsed.signatureValidFor(HexFormat.of().parseHex(Vectors.key(v.key()).publicKey()))).isTrue();
  }

  @Test
  void anotherKeyDoesNotVerify() {
    SignedTransfer signed = SIGNER.sign(1L, 1, VALID_UNTIL, List.of(new TransferOrder(OWNER, 10L, null, true)));
    WalletKey other = WalletKey.fromSeedHex("00".repeat(32));

    assertThat(TransferParser.parse(signed.boc()).signatureValidFor(other.publicKey())).isFalse();
  }

  @Test
  void tamperedSeqnoFailsVerification() {
    SignedTransfer signed = SIGNER.sign(1L, 5, VALID_UNTIL, List.of(new TransferOrder(OWNER, 10L, null, true)));

    ParsedTransfer tampered = TransferParser.parse(withSignedPart(signed, (orig, b) -> b
        .storeUint(orig.loadUint(32), 32)      // subwallet
        .storeUint(orig.loadUint(32), 32)      // valid_until
        .storeUint(orig.loadUint(32).add(BigInteger.ONE), 32))); // seqno + 1

    assertThat(tampered.seqno()).isEqualTo(6);
    assertThat(tampered.signatureValidFor(KEY.publicKey())).isFalse();
  }

  @Test
  void tamperedAmountFailsVerification() {
    SignedTransfer signed = SIGNER.sign(1L, 5, VALID_UNTIL, List.of(new TransferOrder(OWNER, 10L, "x", true)));
    SignedTransfer richer = SIGNER.sign(1L, 5, VALID_UNTIL, List.of(new TransferOrder(OWNER, 10_000L, "x", true)));

    // The signature of the 10-nanoton message on the body of the 10,000-nanoton one.
    Cell splice = external(signed.wallet(), CellBuilder.beginCell()
        .storeBytes(HexFormat.of().parseHex(TransferParser.parse(signed.boc()).signature()))
        .storeCell(signedPart(richer))
        .endCell());
    ParsedTransfer tampered = TransferParser.parse(splice.toBase64());

    assertThat(tampered.orders().get(0).amountNano()).isEqualTo(10_000L);
    assertThat(tampered.signatureValidFor(KEY.publicKey())).isFalse();
    assertThat(TransferParser.parse(richer.boc()).signatureValidFor(KEY.publicKey())).isTrue();
  }

  @Test
  void everyFlippedBocByteIsRejectedByTheCrc() {
    SignedTransfer signed = SIGNER.sign(1L, 5, VALID_UNTIL, List.of(new TransferOrder(OWNER, 10L, "x", true)));
    byte[] boc = Base64.getDecoder().decode(signed.boc());

    for (int i = 0; i < boc.length; i++) {
      String flipped = Base64.getEncoder().encodeToString(flip(boc, i));
      assertThatThrownBy(() -> TransferParser.parse(flipped))
          .as("byte %d flipped", i)
          .isInstanceOf(IllegalArgumentException.class)
          .hasMessageStartingWith("malformed wallet message BOC");
    }
  }

  @Test
  void flippedByteWithoutCrcNeverKeepsAValidSignature() {
    SignedTransfer signed = SIGNER.sign(1L, 5, VALID_UNTIL, List.of(new TransferOrder(OWNER, 10L, "x", true)));
    ParsedTransfer original = TransferParser.parse(signed.boc());
    byte[] boc = Cell.fromBocBase64(signed.boc()).toBoc(false);
    int signedPartChanged = 0;
    List<String> rejections = new java.util.ArrayList<>();

    for (int i = 0; i < boc.length; i++) {
      ParsedTransfer parsed;
      try {
        parsed = TransferParser.parse(Base64.getEncoder().encodeToString(flip(boc, i)));
      } catch (IllegalArgumentException rejected) {
        rejections.add(rejected.getMessage());
        continue;
      }
      // The signature covers the body after it, not the external header (the destination): a flip
      // there yields a message that any other account rejects on subwallet id or key.
      boolean untouched = parsed.signedHash().equals(original.signedHash())
          && parsed.signature().equals(original.signature());
      signedPartChanged += untouched ? 0 : 1;
      assertThat(parsed.signatureValidFor(KEY.publicKey())).as("byte %d flipped", i).isEqualTo(untouched);
    }
    // Most flips land in the signature or signed cells: the loop above really checked signatures.
    assertThat(signedPartChanged).isGreaterThan(boc.length / 2);
    // A flipped reference index can point a cell at itself or back: rejected, not a StackOverflowError.
    assertThat(rejections).anyMatch(m -> m.matches("malformed wallet message BOC: cell \\d+ references cell \\d+ .*"));
  }

  private static byte[] flip(byte[] bytes, int index) {
    byte[] copy = bytes.clone();
    copy[index] ^= 0x01;
    return copy;
  }

  @Test
  void garbageIsRejectedWithAClearMessage() {
    assertThatThrownBy(() -> TransferParser.parse("")).isInstanceOf(IllegalArgumentException.class)
        .hasMessage("message BOC is empty");
    assertThatThrownBy(() -> TransferParser.parse("bm90IGEgYm9j")).isInstanceOf(IllegalArgumentException.class)
        .hasMessageStartingWith("malformed wallet message BOC");
    Cell tooShort = external(OWNER, CellBuilder.beginCell().storeUint(1, 32).endCell());
    assertThatThrownBy(() -> TransferParser.parse(tooShort.toBase64())).isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("body too short");
  }

  interface SignedPartEdit {
    void edit(CellSlice original, CellBuilder replacement);
  }

  /** The message with its signed part's leading fields rewritten and the rest (op, orders) kept. */
  private static String withSignedPart(SignedTransfer signed, SignedPartEdit edit) {
    ParsedTransfer parsed = TransferParser.parse(signed.boc());
    CellSlice orig = CellSlice.beginParse(signedPart(signed));
    CellBuilder b = CellBuilder.beginCell();
    edit.edit(orig, b);
    b.storeSlice(orig);
    Cell body = CellBuilder.beginCell().storeBytes(HexFormat.of().parseHex(parsed.signature())).storeCell(b.endCell()).endCell();
    return external(signed.wallet(), body).toBase64();
  }

  private static Cell signedPart(SignedTransfer signed) {
    Message m = Message.deserialize(CellSlice.beginParse(Cell.fromBocBase64(signed.boc())));
    CellSlice cs = CellSlice.beginParse(CellBuilder.beginCell().storeCell(m.getBody()).endCell());
    cs.loadBytes(512);
    return CellBuilder.beginCell().storeCell(cs.sliceToCell()).endCell();
  }

  private static Cell external(TonAddress wallet, Cell body) {
    ExternalMessageInInfo info = ExternalMessageInInfo.builder()
        .srcAddr(MsgAddressExtNone.builder().build())
        .dstAddr(MsgAddressIntStd.builder().workchainId((byte) wallet.workchain())
            .address(new BigInteger(1, wallet.hash())).build())
        .importFee(BigInteger.ZERO)
        .build();
    return Message.builder().info(info).body(body).build().toCell(); // ton4j's own layout: an independent writer
  }
}
