package org.tonpayouts.devnet.chain;

import java.math.BigInteger;
import java.util.HexFormat;
import java.util.List;
import org.ton.ton4j.cell.Cell;
import org.ton.ton4j.cell.CellBuilder;
import org.ton.ton4j.cell.TonHashMap;

/**
 * The oracle for {@link TransactionCell} and {@link Hashmap15}: devnet's transaction cells as they
 * were built with ton4j's {@link CellBuilder} before devnet moved to {@code TonCell} (the former
 * code, unchanged but for names; its out_msgs dictionary now from ton4j's own {@link TonHashMap}),
 * so the equivalence tests can compare hashes.
 */
final class Ton4jTransactionCell {
  private Ton4jTransactionCell() {}

  /**
   * The cell of one transaction.
   *
   * @param prevHash lowercase hex hash of the account's previous transaction (zeros for none)
   * @param inMessage the message cell exactly as it arrived (its hash is {@code in_msg.hash})
   * @param outMessages the message cells the transaction created, in order
   */
  static Cell build(byte[] accountId, long lt, String prevHash, long prevLt, long now,
                    AccountState origStatus, AccountState endStatus, Cell inMessage, List<Cell> outMessages,
                    long totalFees, byte[] oldStateHash, byte[] newStateHash, TransactionPhases phases) {
    return CellBuilder.beginCell()
        .storeUint(0b0111, 4)                           // transaction$0111
        .storeBytes(accountId)                          // account_addr:bits256
        .storeUint(lt, 64)                              // lt:uint64
        .storeBytes(HexFormat.of().parseHex(prevHash))  // prev_trans_hash:bits256
        .storeUint(prevLt, 64)                          // prev_trans_lt:uint64
        .storeUint(now, 32)                             // now:uint32
        .storeUint(outMessages.size(), 15)              // outmsg_cnt:uint15
        .storeUint(status(origStatus), 2)               // orig_status:AccountStatus
        .storeUint(status(endStatus), 2)                // end_status:AccountStatus
        .storeRef(messages(inMessage, outMessages))     // ^[ in_msg out_msgs ]
        .storeCoins(BigInteger.valueOf(totalFees))      // total_fees:CurrencyCollection: grams
        .storeBit(false)                                //   other:ExtraCurrencyCollection (empty)
        .storeRef(CellBuilder.beginCell()               // state_update:^(HASH_UPDATE Account)
            .storeUint(0x72, 8)                         //   update_hashes#72
            .storeBytes(oldStateHash)
            .storeBytes(newStateHash)
            .endCell())
        .storeRef(description(phases))                  // description:^TransactionDescr
        .endCell();
  }

  /** {@code acc_state_uninit$00 acc_state_frozen$01 acc_state_active$10 acc_state_nonexist$11}. */
  private static int status(AccountState state) {
    return switch (state) {
      case UNINITIALIZED -> 0b00;
      case ACTIVE -> 0b10;
      case NONEXISTENT -> 0b11;
    };
  }

  /** {@code in_msg:(Maybe ^(Message Any)) out_msgs:(HashmapE 15 ^(Message Any))}, keys 0..n-1. */
  private static Cell messages(Cell in, List<Cell> outs) {
    CellBuilder b = CellBuilder.beginCell().storeBit(true).storeRef(in);
    if (outs.isEmpty()) {
      return b.storeBit(false).endCell();
    }
    return b.storeBit(true).storeRef(hashmap15(outs)).endCell();
  }

  private static Cell description(TransactionPhases p) {
    CellBuilder b = CellBuilder.beginCell()
        .storeUint(0b0000, 4)                   // trans_ord$0000
        .storeBit(p.creditFirst())              // credit_first:Bool
        .storeBit(true)                         // storage_ph:(Maybe TrStoragePhase)
        .storeCoins(BigInteger.ZERO)            //   storage_fees_collected:Grams
        .storeBit(false)                        //   storage_fees_due:(Maybe Grams)
        .storeBit(false);                       //   status_change: acst_unchanged$0
    if (p.credit() == null) {
      b.storeBit(false);                        // credit_ph:(Maybe TrCreditPhase)
    } else {
      b.storeBit(true)
          .storeBit(false)                      //   due_fees_collected:(Maybe Grams)
          .storeCoins(BigInteger.valueOf(p.credit()))
          .storeBit(false);                     //   credit:CurrencyCollection (no extra currencies)
    }
    compute(b, p.compute());                    // compute_ph:TrComputePhase
    if (p.action() == null) {
      b.storeBit(false);                        // action:(Maybe ^TrActionPhase)
    } else {
      b.storeBit(true).storeRef(action(p.action()));
    }
    b.storeBit(p.aborted());                    // aborted:Bool
    if (p.bounce() == null) {
      b.storeBit(false);                        // bounce:(Maybe TrBouncePhase)
    } else {
      b.storeBit(true);
      bounce(b, p.bounce());
    }
    return b.storeBit(p.destroyed())            // destroyed:Bool
        .endCell();
  }

  private static void compute(CellBuilder b, TransactionPhases.Compute c) {
    if (c.skipped()) {
      b.storeUint(0b000, 3);                    // tr_phase_compute_skipped$0 reason: cskip_no_state$00
      return;
    }
    CellBuilder details = CellBuilder.beginCell()
        .storeVarUint(BigInteger.valueOf(c.gasUsed()), 7)
        .storeVarUint(BigInteger.valueOf(c.gasLimit()), 7);
    if (c.gasCredit() == null) {
      details.storeBit(false);
    } else {
      details.storeBit(true).storeVarUint(BigInteger.valueOf(c.gasCredit()), 3);
    }
    details.storeInt(0, 8)                      // mode:int8
        .storeInt(c.exitCode(), 32)             // exit_code:int32
        .storeBit(false)                        // exit_arg:(Maybe int32)
        .storeUint(c.vmSteps(), 32)             // vm_steps:uint32
        .storeBytes(new byte[32])               // vm_init_state_hash:bits256
        .storeBytes(new byte[32]);              // vm_final_state_hash:bits256
    b.storeBit(true)                            // tr_phase_compute_vm$1
        .storeBit(c.success())
        .storeBit(c.msgStateUsed())
        .storeBit(c.accountActivated())
        .storeCoins(BigInteger.valueOf(c.gasFees()))
        .storeRef(details.endCell());
  }

  private static Cell action(TransactionPhases.Action a) {
    CellBuilder b = CellBuilder.beginCell()
        .storeBit(a.success())
        .storeBit(a.valid())
        .storeBit(a.noFunds());
    if (a.deleted()) {
      b.storeUint(0b11, 2);                     // status_change: acst_deleted$11
    } else {
      b.storeBit(false);                        // status_change: acst_unchanged$0
    }
    maybeGrams(b, a.fwdFees());                 // total_fwd_fees:(Maybe Grams)
    maybeGrams(b, a.actionFees());              // total_action_fees:(Maybe Grams)
    b.storeInt(a.resultCode(), 32);
    if (a.resultArg() == null) {
      b.storeBit(false);
    } else {
      b.storeBit(true).storeInt(a.resultArg(), 32);
    }
    return b.storeUint(a.totalActions(), 16)
        .storeUint(0, 16)                       // spec_actions
        .storeUint(a.skippedActions(), 16)
        .storeUint(a.messagesCreated(), 16)
        .storeBytes(a.actionListHash())
        .storeVarUint(BigInteger.valueOf(a.messageCells()), 7)   // tot_msg_size:StorageUsed
        .storeVarUint(BigInteger.valueOf(a.messageBits()), 7)
        .endCell();
  }

  private static void bounce(CellBuilder b, TransactionPhases.Bounce bounce) {
    if (bounce.ok()) {
      b.storeBit(true)                          // tr_phase_bounce_ok$1
          .storeVarUint(BigInteger.valueOf(bounce.messageCells()), 7)
          .storeVarUint(BigInteger.valueOf(bounce.messageBits()), 7)
          .storeCoins(BigInteger.valueOf(bounce.msgFees()))
          .storeCoins(BigInteger.valueOf(bounce.fwdFees()));
    } else {
      b.storeUint(0b01, 2)                      // tr_phase_bounce_nofunds$01
          .storeVarUint(BigInteger.ZERO, 7)
          .storeVarUint(BigInteger.ZERO, 7)
          .storeCoins(BigInteger.valueOf(bounce.fwdFees())); // req_fwd_fees
    }
  }

  /** The node stores a fee only when it is not zero ({@code store_Maybe_Grams_nz}). */
  private static void maybeGrams(CellBuilder b, long nano) {
    if (nano == 0) {
      b.storeBit(false);
    } else {
      b.storeBit(true).storeCoins(BigInteger.valueOf(nano));
    }
  }

  // ---- out_msgs ----------------------------------------------------------------------------------

  /**
   * The root of the non-empty {@code Hashmap 15 ^(Message Any)} of {@code values} (keys 0, 1, ...),
   * built by ton4j's own dictionary ({@link TonHashMap}), not by a copy of devnet's former code: an
   * oracle written independently of {@link Hashmap15}'s label choice (the two agree on every size
   * from 1 to 300 messages, {@code TransactionCellEquivalenceTest}).
   */
  static Cell hashmap15(List<Cell> values) {
    if (values.isEmpty()) {
      throw new IllegalArgumentException("1 to 32768 values, got 0");
    }
    TonHashMap dict = new TonHashMap(15);
    for (int i = 0; i < values.size(); i++) {
      dict.elements.put(BigInteger.valueOf(i), values.get(i));
    }
    return dict.serialize(key -> CellBuilder.beginCell().storeUint((BigInteger) key, 15).endCell().getBits(),
        value -> CellBuilder.beginCell().storeRef((Cell) value).endCell());
  }
}
