package org.tonpayouts.local.audit;

/**
 * A request id produced a second time with other content, which the pipeline must reject (on
 * {@code payout.rejected}) and never pay.
 *
 * @param mark text only that other content carries (in a comment): tells its rejection apart
 */
public record ReusedRequestId(String requestId, long subwalletId, String mark) {}
