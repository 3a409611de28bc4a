/** {@code ./payouts demo}: the whole pipeline with a small demo load, then a summary. */
package org.tonpayouts.local.demo;
