package org.tonpayouts.devnet.chain.jetton;

/**
 * Gas the real compiled jetton code uses on each path devnet models, so that devnet charges the
 * real gas fee and every value that follows from it (a mode-64 send, an excess, a bounce) is the
 * real one. Measured in @ton/sandbox 0.41 on the code of {@link JettonFlavor} (the
 * {@code gasUsed} of the golden traces, tools/jetton-traces); where a path's gas grows with what
 * it sends it is a base plus a part per message, which the traces fit exactly.
 *
 * <p>Values marked <em>estimated</em> are paths the traces do not take: their gas is set near
 * the measured neighbour, so their fees are right to a few hundred thousand nanotons at worst.
 * Gas varies a little with payload shapes the traces do not cover (a longer forward payload,
 * a custom payload) on the real chain; devnet charges the same for all.
 */
final class JettonGas {
  // ---- reference wallet (token-contract 2022-04) ----
  /** {@code transfer} accepted: internal_transfer sent. */
  static final long REF_SEND = 8617;
  static final long REF_NOT_OWNER_705 = 2685;
  static final long REF_BALANCE_706 = 2763;
  /** 709 is checked after the outgoing message is built, hence the cost. */
  static final long REF_NOT_ENOUGH_TON_709 = 6823;
  /** {@code internal_transfer} credited, nothing sent (a mint, no forward, no response). */
  static final long REF_RECEIVE = 6365;
  /** Added when the receive sends a {@code transfer_notification}. */
  static final long REF_RECEIVE_NOTIFY = 2147;
  /** Added when the receive sends an {@code excesses}. */
  static final long REF_RECEIVE_EXCESS = 1365;
  /** A bounced message that is not a bounced internal_transfer or burn_notification: 709. */
  static final long REF_BOUNCE_WRONG_OP = 1924;
  /** Estimated: a bounced internal_transfer re-credited. */
  static final long REF_BOUNCE_RECREDIT = 2000;
  /** Estimated: 707 (internal_transfer from neither the master nor a jetton wallet of this master). */
  static final long REF_NOT_VALID_WALLET_707 = 5400;
  /** Estimated: an empty body is ignored right away; an unknown op throws 0xffff. */
  static final long REF_EMPTY = 300;
  static final long REF_UNKNOWN_OP = 700;
  /** Estimated: a malformed body (cell underflow, wrong workchain 333). */
  static final long REF_MALFORMED = 1500;
  static final long REF_MINTER_DEPLOY = 507;
  static final long REF_MINTER_MINT = 6400;
  /** Estimated: 73 (not the admin), op 3 and 4 (admin and content changes). */
  static final long REF_MINTER_NOT_ADMIN = 1200;
  static final long REF_MINTER_ADMIN_OP = 1500;

  // ---- stablecoin wallet ----
  /** {@code transfer} accepted, forward payload inline; plus {@link #STABLE_SEND_PAYLOAD_REF} when it sits in a reference. */
  static final long STABLE_SEND = 9023;
  static final long STABLE_SEND_PAYLOAD_REF = 122;
  static final long STABLE_NOT_OWNER_73 = 2075;
  static final long STABLE_BALANCE_47 = 2189;
  static final long STABLE_INVALID_PAYLOAD_49 = 5025;
  static final long STABLE_NOT_ENOUGH_TON_48 = 7737;
  /** 45 on sending (status bit 1), before the owner check. */
  static final long STABLE_SEND_LOCKED_45 = 1945;
  /** No forward_payload Either bit: reading it is a cell underflow (9), after the StateInit is computed. */
  static final long STABLE_NO_PAYLOAD_BIT_9 = 4831;
  /** 45 on receiving (status bit 2): the first thing receive_jettons checks. */
  static final long STABLE_RECEIVE_LOCKED_45 = 1816;
  static final long STABLE_RECEIVE = 5718;
  static final long STABLE_RECEIVE_NOTIFY = 2223;
  static final long STABLE_RECEIVE_EXCESS = 2304;
  /** Estimated: 74 (internal_transfer from neither the master nor a jetton wallet of this master). */
  static final long STABLE_NOT_VALID_WALLET_74 = 5000;
  static final long STABLE_BOUNCE_RECREDIT = 2077;
  /** Estimated: a bounced message of another op (0xffff). */
  static final long STABLE_BOUNCE_WRONG_OP = 1900;
  static final long STABLE_SET_STATUS = 2745;
  /** Estimated: top_up, an unknown op, a malformed body. */
  static final long STABLE_TOP_UP = 900;
  static final long STABLE_UNKNOWN_OP = 1000;
  static final long STABLE_MALFORMED = 1500;
  static final long STABLE_MINTER_DEPLOY = 2593;
  static final long STABLE_MINTER_MINT = 8916;
  static final long STABLE_MINTER_CALL_TO = 7723;
  /** Estimated: 73 (not the admin), 48/49/72 on a mint or call_to, a bounced mint. */
  static final long STABLE_MINTER_NOT_ADMIN = 2600;
  static final long STABLE_MINTER_REFUSED = 6000;
  static final long STABLE_MINTER_BOUNCE = 2500;

  // ---- get-methods (estimated: they cost no fee) ----
  static final long GET_WALLET_DATA = 1000;
  static final long GET_WALLET_ADDRESS = 3500;
  static final long GET_JETTON_DATA = 1200;

  private JettonGas() {}
}
