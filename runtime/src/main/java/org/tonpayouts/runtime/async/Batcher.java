package org.tonpayouts.runtime.async;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * I/O threads that run jobs in batches: a thread waits for a job, takes every job queued by then
 * (from any stream task of the instance), and hands them to {@code runBatch} together, so a batch
 * costs a fixed number of round trips whatever its size. Jobs submitted while a batch runs form
 * the next one, so under load batches grow instead of queueing up. With more than one thread,
 * jobs submitted while a batch runs are taken by an idle thread at once instead of waiting for
 * the running batch's slowest round trip; the caller must then not submit two jobs that may not
 * run at the same time.
 *
 * <p>{@code runBatch} must complete every job (deliver its result, or its failure) and must not
 * throw; a throw is logged and the jobs of that batch are handed to {@code onCrash}.
 */
public final class Batcher<J> implements AutoCloseable {
  private static final Logger log = LoggerFactory.getLogger(Batcher.class);

  private final String name;
  private final BlockingQueue<J> queue = new LinkedBlockingQueue<>();
  private final Consumer<List<J>> runBatch;
  private final Consumer<List<J>> onCrash;
  private final List<Thread> threads = new ArrayList<>();
  private volatile boolean closed;
  /** Jobs submitted and not yet handed back (queued or in the running batch). */
  private final java.util.concurrent.atomic.AtomicInteger unfinished = new java.util.concurrent.atomic.AtomicInteger();

  /** One thread: batches run one after the other. */
  public Batcher(String name, Consumer<List<J>> runBatch, Consumer<List<J>> onCrash) {
    this(name, 1, runBatch, onCrash);
  }

  /** {@code threads} threads: up to that many batches run at once. */
  public Batcher(String name, int threads, Consumer<List<J>> runBatch, Consumer<List<J>> onCrash) {
    this.name = Objects.requireNonNull(name, "name");
    this.runBatch = Objects.requireNonNull(runBatch, "runBatch");
    this.onCrash = Objects.requireNonNull(onCrash, "onCrash");
    if (threads < 1) {
      throw new IllegalArgumentException(name + " needs at least one thread, got " + threads);
    }
    for (int i = 0; i < threads; i++) {
      Thread thread = new Thread(this::loop, threads == 1 ? name : name + "-" + i);
      thread.setDaemon(true);
      this.threads.add(thread);
      thread.start();
    }
  }

  /** Queues {@code job} for the next batch; never blocks. */
  public void submit(J job) {
    if (closed) {
      throw new IllegalStateException(name + " is closed");
    }
    unfinished.incrementAndGet();
    queue.add(job);
  }

  /**
   * True when every job submitted so far has been run: tests wait for it to step a topology
   * deterministically; the pipeline itself never waits on a batcher.
   */
  public boolean idle() {
    return unfinished.get() == 0;
  }

  /** Jobs waiting for a batch (not counting the one running). */
  public int queued() {
    return queue.size();
  }

  private void loop() {
    while (!closed) {
      List<J> batch = new ArrayList<>();
      try {
        J first = queue.poll(200, TimeUnit.MILLISECONDS);
        if (first == null) {
          continue;
        }
        batch.add(first);
        queue.drainTo(batch);
        runBatch.accept(batch);
        unfinished.addAndGet(-batch.size());
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        return;
      } catch (RuntimeException | Error e) {
        if (e instanceof VirtualMachineError vme) {
          throw vme;
        }
        log.error("{} batch of {} jobs failed; handing them back error={}", name, batch.size(), e.toString(), e);
        onCrash.accept(batch);
        unfinished.addAndGet(-batch.size());
      }
    }
  }

  @Override
  public void close() {
    closed = true;
    threads.forEach(Thread::interrupt);
    try {
      for (Thread thread : threads) {
        thread.join(TimeUnit.SECONDS.toMillis(5));
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
