package org.tonpayouts.ton.api;

/**
 * What {@code sendBocReturnHash} answered for an accepted external message: its hash and its
 * TEP-467 normalized hash, both lowercase hex. {@code hashNorm} is null when the server does not
 * send one.
 */
public record SentMessage(String hash, String hashNorm) {}
