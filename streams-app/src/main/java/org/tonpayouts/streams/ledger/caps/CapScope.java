package org.tonpayouts.streams.ledger.caps;

/** Whose spend a cap bounds. */
public enum CapScope {
  /** One subwallet's own spend. */
  WALLET,
  /** All subwallets' spend together. */
  DEPLOYMENT;

  /** The key of the scope's buckets: the subwallet, or -1 for the deployment. */
  long bucketKey(long subwalletId) {
    return this == WALLET ? subwalletId : -1L;
  }

  /** "subwallet N's" or "the deployment's", for details. */
  String owner(long subwalletId) {
    return this == WALLET ? "subwallet " + subwalletId + "'s" : "the deployment's";
  }
}
