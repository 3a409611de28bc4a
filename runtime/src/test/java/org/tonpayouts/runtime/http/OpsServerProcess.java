package org.tonpayouts.runtime.http;

import java.util.Optional;
import org.tonpayouts.runtime.PayoutsConfig;
import org.tonpayouts.runtime.ops.CheckResult;
import org.tonpayouts.runtime.ops.Health;
import org.tonpayouts.runtime.ops.OpsServer;

/**
 * A process that serves only the ops endpoint, configured from {@code PAYOUTS_*} as a payout
 * process is: the JDK reads its HTTP limits once per process, so {@link HttpLimitsProcessTest} runs
 * this in a JVM of its own. Prints {@code port=<n>} when listening; exits when its stdin closes.
 */
public final class OpsServerProcess {
  private OpsServerProcess() {}

  public static void main(String[] args) throws Exception {
    PayoutsConfig config = PayoutsConfig.load(Optional.empty(), System.getenv());
    Health health = new Health().live("process", () -> CheckResult.up("running"));
    try (OpsServer ops = OpsServer.start(config, () -> "# no metrics\n", health)) {
      System.out.println("port=" + ops.port());
      System.out.flush();
      while (System.in.read() >= 0) {
        // until the test closes our stdin
      }
    }
  }
}
