package org.tonpayouts.devnet.chain;

import java.util.HexFormat;
import java.util.List;
import org.tonpayouts.ton.cell.CellWriter;
import org.tonpayouts.ton.cell.TonCell;

/**
 * The TL-B {@code Transaction} cell (block.tlb) of a devnet transaction, laid out field by field
 * as the real node's {@code Transaction::serialize} writes it. Its hash is the transaction's hash
 * ({@code transaction_id.hash}) and its BOC is toncenter's {@code data}, which SDKs parse.
 *
 * <p>Written field by field rather than with ton4j's TL-B classes: in ton4j 1.3.5
 * {@code HashUpdate.toCell} writes the {@code update_hashes#72} tag in 32 bits instead of 8,
 * {@code ActionPhase.toCell} puts a Maybe bit before {@code action_list_hash}, and
 * {@code AccStatusChange.toCell} swaps the frozen and deleted tags (their parsers are right,
 * and the tests parse devnet's cells with them).
 */
final class TransactionCell {
  private TransactionCell() {}

  /**
   * The cell of one transaction.
   *
   * @param prevHash lowercase hex hash of the account's previous transaction (zeros for none)
   * @param inMessage the message cell exactly as it arrived (its hash is {@code in_msg.hash})
   * @param outMessages the message cells the transaction created, in order
   */
  static TonCell build(byte[] accountId, long lt, String prevHash, long prevLt, long now,
                    AccountState origStatus, AccountState endStatus, TonCell inMessage, List<TonCell> outMessages,
                    long totalFees, byte[] oldStateHash, byte[] newStateHash, TransactionPhases phases) {
    return TonCell.builder()
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
        .storeCoins(totalFees)                           // total_fees:CurrencyCollection: grams
        .storeBit(false)                                //   other:ExtraCurrencyCollection (empty)
        .storeRef(TonCell.builder()                     // state_update:^(HASH_UPDATE Account)
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
  private static TonCell messages(TonCell in, List<TonCell> outs) {
    CellWriter b = TonCell.builder().storeBit(true).storeRef(in);
    if (outs.isEmpty()) {
      return b.storeBit(false).endCell();
    }
    return b.storeBit(true).storeRef(Hashmap15.of(outs)).endCell();
  }

  private static TonCell description(TransactionPhases p) {
    CellWriter b = TonCell.builder()
        .storeUint(0b0000, 4)                   // trans_ord$0000
        .storeBit(p.creditFirst())              // credit_first:Bool
        .storeBit(true)                         // storage_ph:(Maybe TrStoragePhase)
        .storeCoins(0)                          //   storage_fees_collected:Grams
        .storeBit(false)                        //   storage_fees_due:(Maybe Grams)
        .storeBit(false);                       //   status_change: acst_unchanged$0
    if (p.credit() == null) {
      b.storeBit(false);                        // credit_ph:(Maybe TrCreditPhase)
    } else {
      b.storeBit(true)
          .storeBit(false)                      //   due_fees_collected:(Maybe Grams)
          .storeCoins(p.credit())
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

  private static void compute(CellWriter b, TransactionPhases.Compute c) {
    if (c.skipped()) {
      b.storeUint(0b000, 3);                    // tr_phase_compute_skipped$0 reason: cskip_no_state$00
      return;
    }
    CellWriter details = TonCell.builder()
        .storeVarUint(c.gasUsed(), 7)
        .storeVarUint(c.gasLimit(), 7);
    if (c.gasCredit() == null) {
      details.storeBit(false);
    } else {
      details.storeBit(true).storeVarUint(c.gasCredit(), 3);
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
        .storeCoins(c.gasFees())
        .storeRef(details.endCell());
  }

  private static TonCell action(TransactionPhases.Action a) {
    CellWriter b = TonCell.builder()
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
        .storeVarUint(a.messageCells(), 7)      // tot_msg_size:StorageUsed
        .storeVarUint(a.messageBits(), 7)
        .endCell();
  }

  private static void bounce(CellWriter b, TransactionPhases.Bounce bounce) {
    if (bounce.ok()) {
      b.storeBit(true)                          // tr_phase_bounce_ok$1
          .storeVarUint(bounce.messageCells(), 7)
          .storeVarUint(bounce.messageBits(), 7)
          .storeCoins(bounce.msgFees())
          .storeCoins(bounce.fwdFees());
    } else {
      b.storeUint(0b01, 2)                      // tr_phase_bounce_nofunds$01
          .storeVarUint(0, 7)
          .storeVarUint(0, 7)
          .storeCoins(bounce.fwdFees());        // req_fwd_fees
    }
  }

  /** The node stores a fee only when it is not zero ({@code store_Maybe_Grams_nz}). */
  private static void maybeGrams(CellWriter b, long nano) {
    if (nano == 0) {
      b.storeBit(false);
    } else {
      b.storeBit(true).storeCoins(nano);
    }
  }
}
