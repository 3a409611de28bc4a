package org.tonpayouts.runtime.ops;

/** One part of a process's health (Kafka Streams state, the ledger database, the TON API). */
@FunctionalInterface
public interface HealthCheck {
  /** Checks now; may block briefly (wrap slow checks in {@link TimedCheck}), never throws. */
  CheckResult check();
}
