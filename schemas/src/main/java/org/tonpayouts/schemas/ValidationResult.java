package org.tonpayouts.schemas;

import java.util.List;
import java.util.Objects;

/**
 * The outcome of {@link PayoutRequestValidator#validate}: a request ready for the pipeline, or the
 * reason it is refused. Use {@code instanceof Valid v} / {@code instanceof Invalid i}, or
 * {@link #isValid()} with {@link #request()} / {@link #reason()}.
 */
public sealed interface ValidationResult {

  /** True for {@link Valid}. */
  boolean isValid();

  /**
   * The parsed request.
   *
   * @throws IllegalStateException if the input was invalid
   */
  PayoutRequest request();

  /**
   * The problems joined into one line, each prefixed with its JSON path (e.g.
   * {@code $.transfers[1].amountNano: must be a positive integer...}); at most
   * {@link Reasons#MAX_LISTED} are listed, then how many more there were.
   *
   * @throws IllegalStateException if the input was valid
   */
  String reason();

  /** A request that passed every check. */
  record Valid(PayoutRequest request) implements ValidationResult {
    public Valid {
      Objects.requireNonNull(request, "request");
    }

    @Override
    public boolean isValid() {
      return true;
    }

    @Override
    public String reason() {
      throw new IllegalStateException("request " + request.requestId() + " is valid");
    }
  }

  /**
   * Refused input.
   *
   * @param problems each problem on its own, in the order found
   */
  record Invalid(List<String> problems) implements ValidationResult {
    /** Separator between problems in {@link #reason()}. */
    public static final String SEPARATOR = Reasons.SEPARATOR;

    public Invalid {
      problems = List.copyOf(problems);
      if (problems.isEmpty()) {
        throw new IllegalArgumentException("an invalid result needs at least one problem");
      }
    }

    @Override
    public boolean isValid() {
      return false;
    }

    @Override
    public PayoutRequest request() {
      throw new IllegalStateException("invalid payout request: " + reason());
    }

    @Override
    public String reason() {
      return Reasons.join(problems);
    }
  }
}
