package org.tonpayouts.local.measure;

import java.time.Clock;
import java.util.Map;
import java.util.OptionalLong;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicBoolean;
import org.tonpayouts.devnet.Devnet;

/**
 * Millisecond times of devnet's blocks. A block's {@code utime} has whole seconds only (as on the
 * real chain), too coarse for a 400 ms block; this thread, in the same JVM as devnet, wakes on each
 * new block and notes when it became visible: the moment the API could first report its
 * transactions, i.e. the chain's confirmation time of everything in it.
 */
public final class BlockClock implements AutoCloseable {
  private final Devnet devnet;
  private final Clock clock;
  private final Map<Long, Long> millisBySeqno = new ConcurrentHashMap<>();
  private final AtomicBoolean running = new AtomicBoolean(true);
  private final Thread thread;
  private volatile long skipped;

  private BlockClock(Devnet devnet, Clock clock) {
    this.devnet = devnet;
    this.clock = clock;
    this.thread = new Thread(this::run, "block-clock");
    thread.setDaemon(true);
  }

  public static BlockClock start(Devnet devnet, Clock clock) {
    BlockClock blockClock = new BlockClock(devnet, clock);
    blockClock.thread.start();
    return blockClock;
  }

  private void run() {
    long last = devnet.masterchainSeqno();
    while (running.get()) {
      try {
        devnet.awaitBlocks(1);
      } catch (IllegalStateException e) {
        if (!running.get() || Thread.currentThread().isInterrupted()) {
          return;
        }
        continue;
      }
      long now = clock.millis();
      long seqno = devnet.masterchainSeqno();
      // a block we did not wake for gets the time of the next one: counted, and reported by the bench
      for (long s = last + 1; s <= seqno; s++) {
        millisBySeqno.put(s, now);
      }
      skipped += Math.max(0, seqno - last - 1);
      last = seqno;
    }
  }

  /** When block {@code seqno} became visible, if this clock saw it. */
  public OptionalLong millis(long seqno) {
    Long ms = millisBySeqno.get(seqno);
    return ms == null ? OptionalLong.empty() : OptionalLong.of(ms);
  }

  /** Blocks whose time is that of a later block (the thread woke once for several). */
  public long skippedBlocks() {
    return skipped;
  }

  @Override
  public void close() {
    running.set(false);
    thread.interrupt();
  }
}
