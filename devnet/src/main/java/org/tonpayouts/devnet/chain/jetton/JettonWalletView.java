package org.tonpayouts.devnet.chain.jetton;

import java.math.BigInteger;
import org.tonpayouts.ton.address.TonAddress;

/**
 * One owner's jetton wallet of one master as of the last block: its address (derived, whether
 * or not it exists yet), whether it is deployed, its jetton balance and (stablecoin) status.
 *
 * @param status the stablecoin's lock bits (1: sending locked, 2: receiving locked); 0 for the reference
 */
public record JettonWalletView(TonAddress address, TonAddress owner, TonAddress master, JettonFlavor flavor,
                               boolean deployed, BigInteger balance, int status, long tonBalance) {}
