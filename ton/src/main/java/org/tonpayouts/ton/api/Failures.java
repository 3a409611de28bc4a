package org.tonpayouts.ton.api;

import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutionException;

/**
 * The failure behind an asynchronous call's wrappers: a {@link java.util.concurrent.CompletableFuture}
 * hands a failure on wrapped in {@link CompletionException} or {@link ExecutionException}, and
 * what to do (re-send, give up, log) depends on what is inside.
 */
public final class Failures {
  private Failures() {}

  /** {@code e} without its completion and execution wrappers. */
  public static Throwable cause(Throwable e) {
    Throwable t = e;
    while ((t instanceof CompletionException || t instanceof ExecutionException) && t.getCause() != null) {
      t = t.getCause();
    }
    return t;
  }
}
