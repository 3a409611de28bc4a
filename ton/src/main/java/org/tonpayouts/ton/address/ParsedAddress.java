package org.tonpayouts.ton.address;

/**
 * An address with the flags its text carried: a user-friendly address says whether the sender
 * should bounce and whether it is meant for testnet; a raw address says neither (bounceable, not
 * testnet are reported).
 */
public record ParsedAddress(TonAddress address, boolean bounceable, boolean testnet, boolean userFriendly) {}
