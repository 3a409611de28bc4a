/**
 * {@code ./payouts bench}: the benchmark, apart from the product and from the other tools: devnet's
 * own capacity, a warm-up, the pipeline's measured load, idle CPU, failing sends, a per-wallet-loop
 * peer, and the report against the targets.
 */
package org.tonpayouts.local.bench;
