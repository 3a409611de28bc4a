package org.tonpayouts.streams.admin;

import java.nio.file.Path;
import java.util.Optional;
import java.util.OptionalLong;
import org.apache.kafka.common.config.ConfigException;
import org.tonpayouts.runtime.PayoutsConfig;
import org.tonpayouts.runtime.StartupException;
import org.tonpayouts.runtime.admin.OperatorTokens;

/**
 * How admin API callers prove who they are: either each operator by a token of their own
 * ({@code admin.operators.file}, the production way: the audit log records the authenticated name),
 * or one shared {@code admin.token} (the local stack, a single operator: the audit log records the
 * name typed in the body, marked "(shared token)").
 */
public sealed interface AdminAccess {
  String BEARER = "Bearer ";

  /** Who the {@code Authorization} header (null when absent) shows the caller to be. */
  Authentication authenticate(String authorization);

  /** "operators file <path>" or "shared token", for the start-up log line. */
  String describe();

  /** One shared token (the local stack, tests). */
  static AdminAccess sharedToken(String token) {
    return new Shared(new BearerToken(token));
  }

  /**
   * The access streams-app's configuration asks for; empty when the admin API is off.
   *
   * @throws StartupException when the admin API is on without credentials, with both kinds, with a
   *     two-person rule but one shared token, or with an unusable operators file or token
   */
  static Optional<AdminAccess> from(PayoutsConfig config) {
    if (config.adminPort() == 0) {
      return Optional.empty();
    }
    Optional<String> token;
    try {
      token = config.adminToken();
    } catch (ConfigException e) {
      throw new StartupException(e.getMessage(), e);
    }
    Optional<Path> operators = config.adminOperatorsFile();
    OptionalLong threshold = config.adminApprovalThresholdNano();
    if (operators.isPresent() && token.isPresent()) {
      throw new StartupException("both " + PayoutsConfig.ADMIN_OPERATORS_FILE_CONFIG + " and the shared admin token ("
          + PayoutsConfig.ADMIN_TOKEN_CONFIG + " or " + PayoutsConfig.ADMIN_TOKEN_FILE_CONFIG + ") are set: the"
          + " operators file replaces the shared token, so that every call is made by a named operator; remove the"
          + " shared token (docs/production.md: Operators)", null);
    }
    if (operators.isEmpty() && threshold.isPresent()) {
      throw new StartupException(PayoutsConfig.ADMIN_APPROVAL_THRESHOLD_NANO_CONFIG + " is " + threshold.getAsLong()
          + " but " + PayoutsConfig.ADMIN_OPERATORS_FILE_CONFIG + " is not set: the two-person rule needs operators"
          + " who sign in by name (with one shared token, one person could approve their own resolution); set "
          + PayoutsConfig.ADMIN_OPERATORS_FILE_CONFIG + ", or " + PayoutsConfig.ADMIN_APPROVAL_THRESHOLD_NANO_CONFIG
          + "=-1", null);
    }
    if (operators.isPresent()) {
      try {
        return Optional.of(new Operators(OperatorCredentials.load(operators.get())));
      } catch (IllegalArgumentException e) {
        throw new StartupException(e.getMessage(), e);
      }
    }
    return Optional.of(new Shared(new BearerToken(token.orElseThrow(() -> new StartupException(
        PayoutsConfig.ADMIN_PORT_CONFIG + " is " + config.adminPort() + " but no admin credentials are set: set "
            + PayoutsConfig.ADMIN_OPERATORS_FILE_CONFIG + " (operators by name), or for a single operator "
            + PayoutsConfig.envName(PayoutsConfig.ADMIN_TOKEN_CONFIG) + " or " + PayoutsConfig.ADMIN_TOKEN_FILE_CONFIG
            + "; or set " + PayoutsConfig.ADMIN_PORT_CONFIG + " to 0", null)))));
  }

  /** The bearer token of {@code authorization}, or null when it is not {@code Bearer <something>}. */
  private static String bearer(String authorization) {
    if (authorization == null || !authorization.regionMatches(true, 0, BEARER, 0, BEARER.length())) {
      return null;
    }
    String token = authorization.substring(BEARER.length()).strip();
    return token.isEmpty() ? null : token;
  }

  /** One shared token: whoever holds it names themselves. */
  record Shared(BearerToken token) implements AdminAccess {
    @Override
    public Authentication authenticate(String authorization) {
      return token.admits(authorization) ? new Authentication.SharedToken()
          : new Authentication.Refused(bearer(authorization) == null ? "no bearer token" : "not the admin token");
    }

    @Override
    public String describe() {
      return "shared-token";
    }
  }

  /** Operators by name, each with a token of their own. */
  record Operators(OperatorCredentials credentials) implements AdminAccess {
    @Override
    public Authentication authenticate(String authorization) {
      String token = bearer(authorization);
      if (token == null) {
        return new Authentication.Refused("no bearer token");
      }
      return credentials.current().operatorWith(OperatorTokens.sha256(token))
          .<Authentication>map(Authentication.Operator::new)
          .orElseGet(() -> new Authentication.Refused("no operator has this token"));
    }

    @Override
    public String describe() {
      return "operators-file";
    }
  }
}
