/**
 * What the demo, the benchmark and the soak share, and nothing else connects them: a load produced
 * and watched until it settles (settlements as a downstream consumer reads them, progress, the
 * end-of-run summary) and the measuring instruments (CPU by process and thread, peak heap, API
 * calls from the processes' meters, latency against devnet's block times).
 */
package org.tonpayouts.local.measure;
