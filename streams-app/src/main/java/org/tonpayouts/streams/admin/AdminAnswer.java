package org.tonpayouts.streams.admin;

import org.tonpayouts.streams.admin.AdminViews.ApprovalView;
import org.tonpayouts.streams.admin.AdminViews.Problem;
import org.tonpayouts.streams.ledger.sql.TransferRow;

/** One answer of the admin API: status and JSON (or YAML for the OpenAPI file). */
record AdminAnswer(int status, Object body, String contentType) {
  static AdminAnswer json(int status, Object body) {
    return new AdminAnswer(status, body, "application/json");
  }

  static AdminAnswer problem(int status, String error) {
    return json(status, new Problem(status, error, null));
  }

  static AdminAnswer problem(int status, String error, TransferRow transfer) {
    return json(status, new Problem(status, error, transfer == null ? null : AdminViews.Transfer.of(transfer)));
  }

  static AdminAnswer problem(int status, String error, ApprovalView approval) {
    return json(status, new Problem(status, error, null, null, approval));
  }
}
