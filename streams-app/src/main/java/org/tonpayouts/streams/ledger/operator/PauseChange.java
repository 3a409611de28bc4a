package org.tonpayouts.streams.ledger.operator;

import org.tonpayouts.streams.ledger.audit.AuditEvent;
import org.tonpayouts.streams.ledger.sql.Pause;

/** What {@link Pauses#pause} or {@link Pauses#resume} did. */
public sealed interface PauseChange {

  /** The pause was set or lifted, and audited. */
  record Changed(Pause pause, AuditEvent audit) implements PauseChange {}

  /** The scope was paused already: nothing changed ({@code pause} is the active one). */
  record AlreadyPaused(Pause pause) implements PauseChange {}

  /** The scope has no active pause to lift: nothing changed. */
  record NotPaused(String scope) implements PauseChange {}
}
