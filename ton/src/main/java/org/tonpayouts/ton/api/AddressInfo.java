package org.tonpayouts.ton.api;

/**
 * An account's raw state as {@code getAddressInformation} reports it.
 *
 * @param balance         nanotons
 * @param state           {@code active}, {@code uninitialized} or {@code frozen}
 * @param code            base64 BOC of the code, null when the account has none
 * @param data            base64 BOC of the data, null when the account has none
 * @param lastTransaction the account's last transaction, null when it never had one
 * @param syncUtime       unix time of the state the server answered from
 */
public record AddressInfo(
    long balance, String state, String code, String data, TransactionId lastTransaction, long syncUtime) {}
