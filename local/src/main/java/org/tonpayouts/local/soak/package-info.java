/**
 * {@code ./payouts soak}: the chaos soak. Its load, produced over a window, and its chaos (kill -9,
 * a zombie, devnet's faults, a foreign signer, dust floods), then the chain auditor's verdict, which
 * it feeds through the auditor's own records.
 */
package org.tonpayouts.local.soak;
