package org.tonpayouts.devnet.chain;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.bouncycastle.math.ec.rfc8032.Ed25519;
import org.tonpayouts.ton.address.TonAddress;
import org.tonpayouts.ton.cell.CellReader;
import org.tonpayouts.ton.cell.MessageCells;
import org.tonpayouts.ton.cell.TonCell;
import org.tonpayouts.ton.wallet.Subwallets;

/**
 * devnet's model of the WalletV4R2 contract ({@code ton-blockchain/wallet-contract},
 * {@code func/wallet-v4-code.fc}): decides whether an external message is accepted, with the
 * contract's checks in the contract's order, and what it asks to send.
 *
 * <p>{@code recv_external}: load signature(512), subwallet_id, valid_until, seqno (underflow: exit
 * 9); {@code valid_until <= now} → 36; seqno ≠ stored → 33; subwallet_id ≠ stored → 34; bad
 * signature over the hash of the body after the signature → 35; then {@code accept_message()},
 * which a balance below {@link Fees#COMPUTE_FEE} cannot pay (out of gas, -14). Only op 0 (simple
 * send: {@code (mode(8) + ^message)} per reference) is modelled; plugin ops are refused.
 */
public final class WalletV4R2 {
  /** The WalletV4R2 code (ton4j's copy, as the signer deploys it). */
  public static final TonCell CODE = Subwallets.code();
  /** Lowercase hex hash of {@link #CODE}: what identifies a V4R2 wallet. */
  public static final String CODE_HASH = CODE.hashHex();

  static final int OP_SIMPLE_SEND = 0;
  private static final int SIGNATURE_BITS = 512;
  private static final int HEADER_BITS = 32 + 32 + 32;

  private WalletV4R2() {}

  /** The wallet's persistent data cell: seqno, subwallet id, public key, empty plugins dict. */
  public static TonCell dataCell(WalletData data) {
    return TonCell.builder()
        .storeUint(data.seqno(), 32)
        .storeUint(data.subwalletId(), 32)
        .storeBytes(data.publicKey())
        .storeBit(false)
        .endCell();
  }

  /** Reads a wallet data cell; throws {@link IllegalArgumentException} when it is not one. */
  public static WalletData parseData(TonCell data) {
    if (data == null) {
      throw new IllegalArgumentException("StateInit has no data");
    }
    CellReader slice = data.parse();
    if (slice.remainingBits() < 32 + 32 + 256 + 1) {
      throw new IllegalArgumentException("data has " + slice.remainingBits() + " bits, WalletV4R2 data has 321");
    }
    long seqno = slice.loadUint(32);
    long subwallet = slice.loadUint(32);
    byte[] publicKey = slice.loadBytes(32);
    return new WalletData(seqno, subwallet, publicKey);
  }

  /** The wallet's decision to accept {@code message}: what it checked against and what it will send. */
  record Accepted(ExternalMessage message, WalletData wallet, boolean deploys, Body body, List<Action> actions) {}

  /** The signed part of a wallet message; {@code tail} is what follows seqno (op and sends). */
  record Body(byte[] signature, byte[] signedHash, long subwalletId, long validUntil, long seqno, TonCell tail) {}

  /** One {@code send_raw_message(msg, mode)} the wallet will perform. */
  record Action(int mode, TonCell message) {}

  /**
   * Runs the contract's checks for {@code message} against {@code account} at unix time {@code now}.
   * {@code verifiedKey} is a public key the signature was already verified with (or {@code null}):
   * when the wallet's key is the same the signature is not checked again.
   */
  static Accepted check(ExternalMessage message, AccountView account, long now, byte[] verifiedKey)
      throws MessageRejectedException {
    TonAddress address = account.address();
    WalletData stored;
    boolean deploys;
    if (account.state() == AccountState.ACTIVE) {
      if (account.contract() != null) {
        throw MessageRejectedException.beforeExecution(address,
            "the account is a " + account.contract().kind() + ", which takes no external messages");
      }
      if (account.wallet() == null) {
        throw MessageRejectedException.beforeExecution(address,
            "devnet runs no code for this account: it is a plain receiving account, not a WalletV4R2");
      }
      stored = account.wallet();
      deploys = false; // a StateInit sent to an active account is ignored, as on chain
    } else {
      stored = fromStateInit(message, address);
      deploys = true;
    }

    Body body = parseBody(message.body(), address);
    if (body.validUntil() <= now) {
      throw MessageRejectedException.exit(address, 36,
          "message expired: valid_until " + body.validUntil() + " <= now " + now);
    }
    if (body.seqno() != stored.seqno()) {
      throw MessageRejectedException.exit(address, 33,
          "seqno mismatch: message has " + body.seqno() + ", wallet expects " + stored.seqno());
    }
    if (body.subwalletId() != stored.subwalletId()) {
      throw MessageRejectedException.exit(address, 34,
          "subwallet_id mismatch: message has " + body.subwalletId() + ", wallet has " + stored.subwalletId());
    }
    byte[] key = stored.publicKey();
    if (verifiedKey == null || !Arrays.equals(verifiedKey, key)) {
      if (!Ed25519.verify(body.signature(), 0, key, 0, body.signedHash(), 0, body.signedHash().length)) {
        throw MessageRejectedException.exit(address, 35, "signature does not verify with the wallet's public key");
      }
    }
    if (account.balance() < Fees.COMPUTE_FEE) {
      throw MessageRejectedException.exit(address, MessageRejectedException.OUT_OF_GAS,
          "balance " + account.balance() + " cannot pay the compute fee " + Fees.COMPUTE_FEE);
    }
    return new Accepted(message, stored, deploys, body, parseActions(body, address));
  }

  private static WalletData fromStateInit(ExternalMessage message, TonAddress address) throws MessageRejectedException {
    if (message.init() == null) {
      throw MessageRejectedException.noCodeRan(address,
          "account is not initialized and the message carries no StateInit: no code ran");
    }
    MessageCells.StateInit init = message.init();
    if (!Arrays.equals(init.cell().hash(), address.hash())) {
      throw MessageRejectedException.noCodeRan(address,
          "StateInit hash " + init.cell().hashHex() + " does not match the account address");
    }
    String codeHash = init.code() == null ? "none" : init.code().hashHex();
    if (!CODE_HASH.equals(codeHash)) {
      throw MessageRejectedException.beforeExecution(address,
          "devnet runs only WalletV4R2 code (" + CODE_HASH + "), StateInit code hash is " + codeHash);
    }
    try {
      return parseData(init.data());
    } catch (IllegalArgumentException e) {
      throw MessageRejectedException.beforeExecution(address, "StateInit data is not WalletV4R2 data: " + e.getMessage());
    }
  }

  static Body parseBody(TonCell body, TonAddress address) throws MessageRejectedException {
    CellReader slice = body.parse();
    if (slice.remainingBits() < SIGNATURE_BITS + HEADER_BITS) {
      throw MessageRejectedException.exit(address, MessageRejectedException.CELL_UNDERFLOW,
          "body has " + slice.remainingBits() + " bits, the wallet reads at least " + (SIGNATURE_BITS + HEADER_BITS));
    }
    byte[] signature = slice.loadBits(SIGNATURE_BITS);
    byte[] signedHash = slice.rest().hash(); // the signed part: everything after the signature, references included
    long subwalletId = slice.loadUint(32);
    long validUntil = slice.loadUint(32);
    long seqno = slice.loadUint(32);
    return new Body(signature, signedHash, subwalletId, validUntil, seqno, slice.rest());
  }

  /**
   * The sends of an accepted message: op(8) = 0, then {@code mode(8) + ^message} while references
   * remain. The contract reads these only after {@code accept_message()}; devnet refuses a body
   * it cannot read before accepting it, so such a message leaves no trace instead of failing on chain.
   */
  static List<Action> parseActions(Body body, TonAddress address) throws MessageRejectedException {
    CellReader slice = body.tail().parse();
    if (slice.remainingBits() < 8) {
      throw MessageRejectedException.exit(address, MessageRejectedException.CELL_UNDERFLOW, "body has no op byte");
    }
    int op = (int) slice.loadUint(8);
    if (op != OP_SIMPLE_SEND) {
      throw MessageRejectedException.beforeExecution(address,
          "devnet models only op 0 (simple send), the message has op " + op + " (plugins)");
    }
    List<Action> actions = new ArrayList<>();
    while (slice.remainingRefs() > 0) {
      if (slice.remainingBits() < 8) {
        throw MessageRejectedException.exit(address, MessageRejectedException.CELL_UNDERFLOW,
            "a message reference without its mode byte");
      }
      int mode = (int) slice.loadUint(8);
      actions.add(new Action(mode, slice.loadRef()));
    }
    return List.copyOf(actions);
  }
}
