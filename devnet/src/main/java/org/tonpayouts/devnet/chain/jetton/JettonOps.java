package org.tonpayouts.devnet.chain.jetton;

import java.math.BigInteger;
import org.tonpayouts.ton.address.TonAddress;
import org.tonpayouts.ton.cell.TonCell;

/**
 * TEP-74 operation codes and the message bodies the jetton contracts write, laid out as their
 * FunC code stores them (the golden traces compare them bit for bit).
 */
public final class JettonOps {
  public static final long TRANSFER = 0x0f8a7ea5L;
  public static final long INTERNAL_TRANSFER = 0x178d4519L;
  public static final long TRANSFER_NOTIFICATION = 0x7362d09cL;
  public static final long EXCESSES = 0xd53276dbL;
  public static final long BURN = 0x595f07bcL;
  public static final long BURN_NOTIFICATION = 0x7bdd97deL;
  /** The reference minter's mint (op 21) and its admin operations. */
  public static final long REFERENCE_MINT = 21;
  public static final long REFERENCE_CHANGE_ADMIN = 3;
  public static final long REFERENCE_CHANGE_CONTENT = 4;
  /** The stablecoin's operations. */
  public static final long STABLECOIN_MINT = 0x642b7d07L;
  public static final long CALL_TO = 0x235caf52L;
  public static final long SET_STATUS = 0xeed236d3L;
  public static final long TOP_UP = 0xd372158cL;

  private JettonOps() {}

  /**
   * {@code internal_transfer#178d4519 query_id amount from response_address forward_ton_amount
   * forward_payload}: {@code payload} is the rest of the transfer body (the Either bit and what
   * follows), copied as is, as {@code store_slice(either_forward_payload)} copies it.
   */
  public static TonCell internalTransfer(long queryId, BigInteger amount, TonAddress from, TonAddress response,
                                         BigInteger forwardTon, TonCell payload) {
    return TonCell.builder()
        .storeUint(INTERNAL_TRANSFER, 32)
        .storeUint(queryId, 64)
        .storeCoins(amount)
        .storeAddress(from)
        .storeAddress(response)
        .storeCoins(forwardTon)
        .storeCell(payload)
        .endCell();
  }

  /** {@code transfer_notification#7362d09c query_id amount sender forward_payload}. */
  public static TonCell transferNotification(long queryId, BigInteger amount, TonAddress from, TonCell payload) {
    return TonCell.builder()
        .storeUint(TRANSFER_NOTIFICATION, 32)
        .storeUint(queryId, 64)
        .storeCoins(amount)
        .storeAddress(from)
        .storeCell(payload)
        .endCell();
  }

  /** {@code excesses#d53276db query_id}. */
  public static TonCell excesses(long queryId) {
    return TonCell.builder().storeUint(EXCESSES, 32).storeUint(queryId, 64).endCell();
  }

  /** The internal_transfer a mint carries: from {@code from}, no response, no forward, an empty inline payload. */
  public static TonCell mintedTransfer(long queryId, BigInteger amount, TonAddress from) {
    return TonCell.builder()
        .storeUint(INTERNAL_TRANSFER, 32)
        .storeUint(queryId, 64)
        .storeCoins(amount)
        .storeAddress(from)
        .storeAddress(null)
        .storeCoins(0)
        .storeBit(false)
        .endCell();
  }

  /**
   * The admin's mint: the reference's {@code mint#15 query_id to_address amount:Coins ^master_msg}
   * or the stablecoin's {@code mint#642b7d07 query_id to_address ton_amount ^master_msg}, both
   * sending {@code tonAmount} with {@code master_msg} (an internal_transfer) to the new wallet.
   */
  public static TonCell mint(JettonFlavor flavor, long queryId, TonAddress to, long tonAmount, TonCell masterMsg) {
    return TonCell.builder()
        .storeUint(flavor == JettonFlavor.REFERENCE ? REFERENCE_MINT : STABLECOIN_MINT, 32)
        .storeUint(queryId, 64)
        .storeAddress(to)
        .storeCoins(tonAmount)
        .storeRef(masterMsg)
        .endCell();
  }

  /** The stablecoin admin's {@code call_to#235caf52 query_id to_address ton_amount ^(set_status query_id status:uint4)}. */
  public static TonCell callToSetStatus(long queryId, TonAddress owner, long tonAmount, int status) {
    TonCell setStatus = TonCell.builder().storeUint(SET_STATUS, 32).storeUint(queryId, 64).storeUint(status, 4)
        .endCell();
    return TonCell.builder()
        .storeUint(CALL_TO, 32)
        .storeUint(queryId, 64)
        .storeAddress(owner)
        .storeCoins(tonAmount)
        .storeRef(setStatus)
        .endCell();
  }

  /** {@code top_up#d372158c query_id}: TON for a stablecoin contract, nothing else. */
  public static TonCell topUp(long queryId) {
    return TonCell.builder().storeUint(TOP_UP, 32).storeUint(queryId, 64).endCell();
  }
}
