package org.tonpayouts.poller;

import java.util.Map;

/**
 * What the exit codes of a jetton wallet that refused a transfer mean, for the verdict's reason:
 * the reference wallet's ({@code token-contract} {@code ft/jetton-wallet.fc}) and the stablecoin's
 * ({@code stablecoin-contract}, USDT-style), which do not overlap but for 333 (TON-FACTS.md, Jettons).
 */
final class JettonExitCodes {
  private static final Map<Integer, String> MEANINGS = Map.ofEntries(
      Map.entry(705, "not the owner (reference)"),
      Map.entry(706, "not enough jettons (reference)"),
      Map.entry(707, "internal_transfer from neither the master nor a jetton wallet of it (reference)"),
      Map.entry(708, "malformed forward payload (reference)"),
      Map.entry(709, "not enough TON attached (reference)"),
      Map.entry(45, "wallet locked (stablecoin)"),
      Map.entry(47, "not enough jettons (stablecoin)"),
      Map.entry(48, "not enough TON attached (stablecoin)"),
      Map.entry(49, "invalid message (stablecoin)"),
      Map.entry(72, "invalid op (stablecoin)"),
      Map.entry(73, "not the owner (stablecoin)"),
      Map.entry(74, "internal_transfer from neither the master nor a jetton wallet of it (stablecoin)"),
      Map.entry(333, "destination on another workchain"),
      Map.entry(9, "cell underflow: a malformed body"),
      Map.entry(0xffff, "unknown op"));

  private JettonExitCodes() {}

  /** {@code "exit code 706: not enough jettons (reference)"}, or without the meaning when it is not a known one. */
  static String describe(Integer code) {
    if (code == null) {
      return "no exit code (the compute phase did not run: no contract there)";
    }
    String meaning = MEANINGS.get(code);
    return "exit code " + code + (meaning == null ? "" : ": " + meaning);
  }
}
