package org.tonpayouts.devnet.chain;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.Iterator;
import java.util.List;
import java.util.Set;
import java.util.function.Predicate;

/**
 * What waits for the next block: accepted external messages in arrival order, one copy per
 * message hash (as a validator's mempool keeps), and the foreign transfers queued by the admin
 * endpoint. Guarded by the {@link Chain}'s lock.
 */
final class Mempool {
  /** An accepted message waiting for a block; remembers whether its abort was already recorded. */
  static final class Pending {
    final CheckedMessage message;
    boolean abortRecorded;

    Pending(CheckedMessage message) {
      this.message = message;
    }
  }

  private final List<Pending> pending = new ArrayList<>();
  private final Set<String> hashes = new HashSet<>();
  private final List<ForeignTransfer> foreign = new ArrayList<>();

  /** Adds {@code message} unless a copy with its hash is already waiting; true when added. */
  boolean add(CheckedMessage message) {
    if (!hashes.add(message.message().hash())) {
      return false;
    }
    pending.add(new Pending(message));
    return true;
  }

  void addForeign(ForeignTransfer transfer) {
    foreign.add(transfer);
  }

  /** The queued foreign transfers, removed from the queue. */
  List<ForeignTransfer> takeForeign() {
    List<ForeignTransfer> taken = List.copyOf(foreign);
    foreign.clear();
    return taken;
  }

  /** Offers every pending message to {@code done} in arrival order; removes those it returns true for. */
  void process(Predicate<Pending> done) {
    Iterator<Pending> it = pending.iterator();
    while (it.hasNext()) {
      Pending p = it.next();
      if (done.test(p)) {
        it.remove();
        hashes.remove(p.message.message().hash());
      }
    }
  }

  int size() {
    return pending.size();
  }
}
