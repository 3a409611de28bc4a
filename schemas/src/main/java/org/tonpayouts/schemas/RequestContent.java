package org.tonpayouts.schemas;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Objects;

/**
 * What a payout request pays, as one comparable value: the idempotency rule is "a requestId pays
 * one thing". Two requests with the same id and the same content are one request sent twice (a
 * harmless duplicate); the same id with other content is a conflict, and {@link #differences}
 * names the fields a producer team must look at.
 *
 * <p>The content is the paying wallet and, per transfer in order, its id, kind, destination (as
 * written), amount (for a jetton transfer the jetton's master and amount, not the TON intake
 * attaches), comment and bounce flag. {@code createdAt} and {@code schemaVersion} are not
 * part of it: a producer that re-sends a request after a timeout may stamp it anew.
 */
public final class RequestContent {
  private RequestContent() {}

  /** SHA-256 (64 lowercase hex digits) of the request's content; equal content, equal fingerprint. */
  public static String fingerprint(PayoutRequest request) {
    StringBuilder canonical = new StringBuilder();
    field(canonical, Long.toString(request.subwalletId()));
    field(canonical, Integer.toString(request.transfers().size()));
    for (TransferRequest t : request.transfers()) {
      field(canonical, t.transferId());
      field(canonical, t.kind().name());
      field(canonical, t.destination());
      if (t.paysJetton()) {
        // the jetton and its amount, never the TON attached: intake sets that from the configuration,
        // so a copy read after a configuration change is still the same request
        field(canonical, "\u0000jetton");
        field(canonical, t.jetton().master());
        field(canonical, t.jetton().amount().toString());
      } else {
        field(canonical, Long.toString(t.amountNano()));
      }
      field(canonical, t.comment() == null ? "\u0000none" : t.comment());
      field(canonical, t.bounce() == null ? "\u0000default" : t.bounce().toString());
    }
    try {
      byte[] digest = MessageDigest.getInstance("SHA-256").digest(canonical.toString().getBytes(StandardCharsets.UTF_8));
      return HexFormat.of().formatHex(digest);
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("SHA-256 is missing from this JVM", e);
    }
  }

  /** Length-prefixed, so no two different field lists give the same text. */
  private static void field(StringBuilder out, String value) {
    out.append(value.length()).append(':').append(value).append(';');
  }

  /**
   * The fields in which {@code again} differs from {@code first}, each as {@code "path: first ->
   * again"}; empty when both pay the same thing.
   */
  public static List<String> differences(PayoutRequest first, PayoutRequest again) {
    List<String> diffs = new ArrayList<>();
    differ(diffs, "subwalletId", first.subwalletId(), again.subwalletId());
    if (first.transfers().size() != again.transfers().size()) {
      diffs.add("transfers: " + first.transfers().size() + " transfers -> " + again.transfers().size());
    }
    int common = Math.min(first.transfers().size(), again.transfers().size());
    for (int i = 0; i < common; i++) {
      TransferRequest a = first.transfer(i);
      TransferRequest b = again.transfer(i);
      String at = "transfers[" + i + "].";
      differ(diffs, at + "transferId", a.transferId(), b.transferId());
      differ(diffs, at + "kind", a.kind(), b.kind());
      differ(diffs, at + "destination", a.destination(), b.destination());
      if (a.paysJetton() || b.paysJetton()) {
        differ(diffs, at + "jetton.master", a.paysJetton() ? a.jetton().master() : null,
            b.paysJetton() ? b.jetton().master() : null);
        differ(diffs, at + "jetton.amount", a.paysJetton() ? a.jetton().amount() : null,
            b.paysJetton() ? b.jetton().amount() : null);
        if (!a.paysJetton() || !b.paysJetton()) {
          differ(diffs, at + "amountNano", a.paysJetton() ? null : a.amountNano(), b.paysJetton() ? null : b.amountNano());
        }
      } else {
        differ(diffs, at + "amountNano", a.amountNano(), b.amountNano());
      }
      differ(diffs, at + "comment", a.comment(), b.comment());
      differ(diffs, at + "bounce", a.bounce(), b.bounce());
    }
    return diffs;
  }

  private static void differ(List<String> diffs, String path, Object first, Object again) {
    if (!Objects.equals(first, again)) {
      diffs.add(path + ": " + shown(first) + " -> " + shown(again));
    }
  }

  private static String shown(Object value) {
    if (value == null) {
      return "absent";
    }
    String text = value.toString();
    return value instanceof String ? "'" + (text.length() > 80 ? text.substring(0, 77) + "..." : text) + "'" : text;
  }
}
