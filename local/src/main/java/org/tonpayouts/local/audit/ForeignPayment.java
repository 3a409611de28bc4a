package org.tonpayouts.local.audit;

import org.tonpayouts.ton.address.TonAddress;

/**
 * A payment someone else holding the wallets' key made, or tried to make, from one of them: on
 * chain it is the payment of {@code wallet} to {@code destination} of {@code amountNano} with
 * {@code comment}, nothing else. The auditor counts each such payment apart from ours, once.
 *
 * @param messageHash the signed message's hash; null when its maker does not know it (a transfer
 *     devnet built and applied for it)
 */
public record ForeignPayment(TonAddress wallet, TonAddress destination, long amountNano, String comment,
                             String messageHash) {}
