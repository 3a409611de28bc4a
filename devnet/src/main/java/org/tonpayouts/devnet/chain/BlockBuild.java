package org.tonpayouts.devnet.chain;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * One block while it is built: its seqno and time, the internal messages still to deliver, the
 * accounts it changed, its transactions' hashes and what happened, for the block's log line.
 * Funding outside a block uses one too, with the last block's seqno.
 */
final class BlockBuild {
  final long seqno;
  final long utime;
  final ArrayDeque<DevnetMessage> internal = new ArrayDeque<>();
  final Set<Account> touched = new LinkedHashSet<>();
  final List<String> txHashes = new ArrayList<>();
  /** The transactions recorded, in recording order (block reads sort them as a node lists them). */
  final List<DevnetTransaction> transactions = new ArrayList<>();
  int applied;
  int aborted;
  int vanished;
  int delivered;

  BlockBuild(long seqno, long utime) {
    this.seqno = seqno;
    this.utime = utime;
  }
}
