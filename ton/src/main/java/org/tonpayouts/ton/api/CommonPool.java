package org.tonpayouts.ton.api;

import java.util.Optional;
import java.util.OptionalInt;
import java.util.concurrent.ForkJoinPool;

/**
 * Makes {@link java.util.concurrent.CompletableFuture}'s default executor the common {@link
 * ForkJoinPool} on small machines too. The JDK's {@link java.net.http.HttpClient} hands every
 * answer of {@code sendAsync} to that executor, whatever executor the client has. The common
 * pool's parallelism is the processor count minus one, and {@code CompletableFuture} only uses the
 * pool from a parallelism of two: on a machine with two processors it starts a new thread for
 * every task instead, so every HTTP answer started and ended a thread (measured at 1,000 wallets
 * on two cores: streams-app 1.4 ms of CPU per transfer, 0.9 ms with the pool).
 *
 * <p>The JVM reads the parallelism once, when the pool is first used: a process's {@code main}
 * class calls {@link #ensureShared()} in its static initializer, before anything else runs.
 */
public final class CommonPool {
  static final String PARALLELISM_PROPERTY = "java.util.concurrent.ForkJoinPool.common.parallelism";
  /** The least parallelism at which {@code CompletableFuture} uses the common pool. */
  static final int SHARED_PARALLELISM = 2;

  private CommonPool() {}

  /** Sets the common pool's parallelism to 2 where it would be lower, unless the JVM was told a value. */
  public static void ensureShared() {
    parallelismToSet(System.getProperty(PARALLELISM_PROPERTY), Runtime.getRuntime().availableProcessors())
        .ifPresent(p -> System.setProperty(PARALLELISM_PROPERTY, Integer.toString(p)));
  }

  /** The parallelism to set, given the property's value (null: unset) and the processors; empty: leave it. */
  static OptionalInt parallelismToSet(String configured, int processors) {
    if (configured != null || processors - 1 >= SHARED_PARALLELISM) {
      return OptionalInt.empty();
    }
    return OptionalInt.of(SHARED_PARALLELISM);
  }

  /** Whether {@code CompletableFuture}'s async tasks run on the common pool, not a new thread each. */
  public static boolean isShared() {
    return ForkJoinPool.getCommonPoolParallelism() >= SHARED_PARALLELISM;
  }

  /** What to tell an operator when the pool is not shared (a main that did not call {@link #ensureShared()}); empty if it is. */
  static Optional<String> problem() {
    if (isShared()) {
      return Optional.empty();
    }
    return Optional.of("the JDK's HttpClient will start a thread for every answer: the common ForkJoinPool has"
        + " parallelism " + ForkJoinPool.getCommonPoolParallelism() + " (fewer than three processors); call"
        + " CommonPool.ensureShared() first in main, or start the JVM with -D" + PARALLELISM_PROPERTY + "=2");
  }
}
