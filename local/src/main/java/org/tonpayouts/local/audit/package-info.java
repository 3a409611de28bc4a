/**
 * The auditors, independent of what they judge: the chain auditor reads every wallet's history
 * through the TON HTTP API, the ledger with plain SQL and the topics as a downstream consumer, and
 * is told what the run asked for and what others paid through its own records
 * ({@link org.tonpayouts.local.audit.ExpectedTransfer}, {@link org.tonpayouts.local.audit.ForeignPayment},
 * {@link org.tonpayouts.local.audit.ReusedRequestId}); the ledger audit checks a run's seqnos against
 * devnet. Imports no other package of the launcher.
 */
package org.tonpayouts.local.audit;
