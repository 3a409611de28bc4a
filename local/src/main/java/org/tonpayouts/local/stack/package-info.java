/**
 * The local stack: the in-process Kafka broker, PostgreSQL and devnet, streams-app and chain-poller
 * as child JVMs (their configuration, secrets in their environment only, start, readiness, kill,
 * pause, restart), one run's directory, key and wallets. Knows nothing of the loads, measures,
 * chaos or audits that run on it.
 */
package org.tonpayouts.local.stack;
