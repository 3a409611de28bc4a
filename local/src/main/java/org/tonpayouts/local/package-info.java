/**
 * The local stack launcher's command line, {@code ./payouts}: {@link org.tonpayouts.local.LocalStackMain}
 * and {@code up}, the one package that sees all the others. They import one way (the architecture
 * test holds them to it): {@code stack} starts and supervises the processes and knows nothing of
 * what runs on it; {@code demo}, {@code bench} and {@code soak} each drive the stack and share only
 * {@code measure}; {@code audit}, the chain auditor, is a judge of its own that imports none of them.
 * The operator's commands ({@code admin}, {@code wallets}, {@code topics}, {@code config-table}) come
 * from the operator-cli module, whose payouts-cli.jar runs without any of this.
 */
package org.tonpayouts.local;
