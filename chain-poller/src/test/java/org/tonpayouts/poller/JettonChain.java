package org.tonpayouts.poller;

import java.math.BigInteger;
import java.time.Instant;
import java.util.Arrays;
import java.util.List;
import org.tonpayouts.schemas.JettonOrder;
import org.tonpayouts.ton.address.TonAddress;
import org.tonpayouts.ton.api.ChainMessage;
import org.tonpayouts.ton.api.ChainTransaction;
import org.tonpayouts.ton.api.TransactionId;
import org.tonpayouts.ton.cell.TonCell;
import org.tonpayouts.ton.jetton.JettonOps;
import org.tonpayouts.ton.jetton.JettonTransfer;

/**
 * Hand-made jetton payouts for the pure tests: our subwallet, its jetton wallet, a receiver's and
 * a stranger's, the messages between them with the bodies the jetton wallets write, and
 * transactions carrying a TL-B cell with a chosen exit code (laid out as devnet's {@code
 * TransactionCell} and the node write it, so ton4j's parser reads it as it reads the chain's).
 */
final class JettonChain {
  static final Instant SUBMITTED = Instant.parse("2026-05-01T12:00:00Z");
  static final TonAddress WALLET = TonAddress.of(0, bytes(0x11));
  static final TonAddress SENDER_JW = TonAddress.of(0, bytes(0x22));
  static final TonAddress RECEIVER_JW = TonAddress.of(0, bytes(0x33));
  static final TonAddress STRANGER_JW = TonAddress.of(0, bytes(0x44));
  static final TonAddress STRANGER = TonAddress.of(0, bytes(0x45));
  static final TonAddress MASTER = TonAddress.of(0, bytes(0x55));
  static final TonAddress OWNER = TonAddress.of(0, bytes(0xb0));
  static final long QUERY_ID = 42;
  static final BigInteger AMOUNT = BigInteger.valueOf(250);
  static final long ATTACHED = 50_000_000;
  static final JettonOrder ORDER = new JettonOrder(MASTER.toRaw(), AMOUNT, QUERY_ID, SENDER_JW.toRaw(), 1);
  static final String HASH = "aa".repeat(32);
  static final String WALLET_TX = "ab".repeat(32);
  /** The wallet's transaction that handed the transfer over, and the lt of its message to our jetton wallet. */
  static final long WALLET_LT = 100;
  static final long TRANSFER_MSG_LT = 101;

  private JettonChain() {}

  static TonCell transferBody(long queryId) {
    return new JettonTransfer(queryId, AMOUNT, OWNER, WALLET, 1, "payout").toCell();
  }

  static TonCell internalTransferBody(long queryId, BigInteger amount, TonAddress from) {
    return TonCell.builder().storeUint(JettonOps.INTERNAL_TRANSFER, 32).storeUint(queryId, 64).storeCoins(amount)
        .storeAddress(from).storeAddress(from).storeCoins(1).storeBit(false).endCell();
  }

  /** A bounce of a message whose body started with {@code op} and {@code queryId}. */
  static TonCell bounceBody(long op, long queryId) {
    return TonCell.builder().storeUint(JettonOps.BOUNCED, 32).storeUint(op, 32).storeUint(queryId, 64).endCell();
  }

  static TonCell excessesBody(long queryId) {
    return TonCell.builder().storeUint(JettonOps.EXCESSES, 32).storeUint(queryId, 64).endCell();
  }

  static ChainMessage message(TonAddress from, TonAddress to, long value, long createdLt, TonCell body) {
    return new ChainMessage(String.format("%064x", createdLt * 7 + 3), from, to, value, 400_000, 0, createdLt,
        body.hashHex(), null, body.toBase64(), null);
  }

  /** A transaction of {@code account}; {@code data} is a transaction cell ({@link #cell}) or null. */
  static ChainTransaction tx(TonAddress account, long lt, ChainMessage in, String data, ChainMessage... outs) {
    return new ChainTransaction(account, new TransactionId(lt, String.format("%064x", lt)),
        SUBMITTED.getEpochSecond() + 2, 3_000_000, 0, 3_000_000, in, List.of(outs), data);
  }

  // --- the chain of a payout of ours, lts in order --------------------------------------------

  /** Our jetton wallet takes the wallet's transfer and sends internal_transfer on (lt 200, its message 201). */
  static ChainTransaction senderTook() {
    return tx(SENDER_JW, 200, message(WALLET, SENDER_JW, ATTACHED, TRANSFER_MSG_LT, transferBody(QUERY_ID)),
        cell(0, false), message(SENDER_JW, RECEIVER_JW, 40_000_000, 201,
            internalTransferBody(QUERY_ID, AMOUNT, WALLET)));
  }

  /** The receiver's jetton wallet accepts our internal_transfer (lt 300). */
  static ChainTransaction receiverAccepted() {
    return tx(RECEIVER_JW, 300, internalTransferIn(201), cell(0, false),
        message(RECEIVER_JW, WALLET, 20_000_000, 301, excessesBody(QUERY_ID)));
  }

  /** The receiver's jetton wallet refuses it with {@code exitCode} and bounces it back (lt 300, the bounce 301). */
  static ChainTransaction receiverRefused(int exitCode) {
    return tx(RECEIVER_JW, 300, internalTransferIn(201), cell(exitCode, true),
        message(RECEIVER_JW, SENDER_JW, 30_000_000, 301, bounceBody(JettonOps.INTERNAL_TRANSFER, QUERY_ID)));
  }

  /** Our jetton wallet takes the receiver's bounce back and re-credits (lt 400). */
  static ChainTransaction recredit() {
    return tx(SENDER_JW, 400, message(RECEIVER_JW, SENDER_JW, 30_000_000, 301,
        bounceBody(JettonOps.INTERNAL_TRANSFER, QUERY_ID)), cell(0, false));
  }

  static ChainMessage internalTransferIn(long createdLt) {
    return message(SENDER_JW, RECEIVER_JW, 40_000_000, createdLt, internalTransferBody(QUERY_ID, AMOUNT, WALLET));
  }

  /** An unrelated receipt of {@code account} (lt {@code lt}): a plain transfer from a stranger. */
  static ChainTransaction unrelated(TonAddress account, long lt) {
    return tx(account, lt, message(STRANGER, account, 1_000_000, lt - 1, TonCell.EMPTY), null);
  }

  /**
   * A TL-B ordinary transaction's cell (base64 BOC) whose compute phase ran with {@code exitCode},
   * {@code aborted} as given; no messages (the JSON carries them).
   */
  static String cell(int exitCode, boolean aborted) {
    TonCell details = TonCell.builder()
        .storeVarUint(5_000, 7).storeVarUint(100_000, 7).storeBit(false)
        .storeInt(0, 8).storeInt(exitCode, 32).storeBit(false).storeUint(50, 32)
        .storeBytes(new byte[32]).storeBytes(new byte[32]).endCell();
    TonCell description = TonCell.builder()
        .storeUint(0, 4).storeBit(false)                           // trans_ord, credit_first
        .storeBit(true).storeCoins(0).storeBit(false).storeBit(false) // storage phase
        .storeBit(true).storeBit(false).storeCoins(ATTACHED).storeBit(false) // credit phase
        .storeBit(true).storeBit(exitCode == 0).storeBit(false).storeBit(false).storeCoins(2_000_000)
        .storeRef(details)                                          // compute phase (VM)
        .storeBit(false)                                            // no action phase
        .storeBit(aborted)
        .storeBit(false)                                            // no bounce phase
        .storeBit(false)                                            // not destroyed
        .endCell();
    return TonCell.builder()
        .storeUint(0b0111, 4).storeBytes(bytes(0x22)).storeUint(200, 64).storeBytes(new byte[32]).storeUint(0, 64)
        .storeUint(SUBMITTED.getEpochSecond(), 32).storeUint(0, 15).storeUint(0b10, 2).storeUint(0b10, 2)
        .storeRef(TonCell.builder().storeBit(false).storeBit(false).endCell())
        .storeCoins(3_000_000).storeBit(false)
        .storeRef(TonCell.builder().storeUint(0x72, 8).storeBytes(new byte[32]).storeBytes(new byte[32]).endCell())
        .storeRef(description)
        .endCell().toBase64();
  }

  static byte[] bytes(int b) {
    byte[] hash = new byte[32];
    Arrays.fill(hash, (byte) b);
    return hash;
  }
}
