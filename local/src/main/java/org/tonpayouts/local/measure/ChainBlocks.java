package org.tonpayouts.local.measure;

import java.util.HashMap;
import java.util.Map;
import java.util.OptionalLong;
import org.tonpayouts.devnet.Devnet;
import org.tonpayouts.devnet.chain.DevnetTransaction;
import org.tonpayouts.ton.address.TonAddress;

/**
 * Which devnet block holds a wallet's transaction, found by the transaction's lt (what a settlement
 * names) or by the hash of the external message that caused it (what a client that sent it knows).
 * Reads each wallet's transactions once, after a load: nothing is looked up while one runs.
 */
public final class ChainBlocks {
  private final Devnet devnet;
  private final Map<TonAddress, Map<Long, Long>> blockByLt = new HashMap<>();
  private final Map<TonAddress, Map<String, Long>> blockByMessage = new HashMap<>();

  public ChainBlocks(Devnet devnet) {
    this.devnet = devnet;
  }

  public OptionalLong byLt(TonAddress wallet, long lt) {
    load(wallet);
    Long block = blockByLt.get(wallet).get(lt);
    return block == null ? OptionalLong.empty() : OptionalLong.of(block);
  }

  /** @param messageHash lowercase hex hash of the external message */
  public OptionalLong byMessage(TonAddress wallet, String messageHash) {
    load(wallet);
    Long block = blockByMessage.get(wallet).get(messageHash);
    return block == null ? OptionalLong.empty() : OptionalLong.of(block);
  }

  private void load(TonAddress wallet) {
    if (blockByLt.containsKey(wallet)) {
      return;
    }
    Map<Long, Long> byLt = new HashMap<>();
    Map<String, Long> byMessage = new HashMap<>();
    for (DevnetTransaction tx : devnet.transactions(wallet)) {
      byLt.put(tx.lt(), tx.blockSeqno());
      byMessage.put(tx.inMsg().hash(), tx.blockSeqno());
    }
    blockByLt.put(wallet, byLt);
    blockByMessage.put(wallet, byMessage);
  }
}
