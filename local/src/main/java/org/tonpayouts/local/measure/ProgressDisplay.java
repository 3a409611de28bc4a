package org.tonpayouts.local.measure;

import java.io.PrintWriter;
import java.time.Duration;
import me.tongfei.progressbar.ProgressBar;
import me.tongfei.progressbar.ProgressBarBuilder;
import me.tongfei.progressbar.ProgressBarStyle;

/**
 * Shows settling progress: a progress bar on an interactive terminal, otherwise (piped output, CI,
 * tests) a plain line every few seconds, so a log file does not fill with carriage returns.
 */
public abstract class ProgressDisplay implements AutoCloseable {
  /** Reports {@code done} of the total, with a short status such as {@code failed=0}. */
  public abstract void update(long done, String status);

  @Override
  public abstract void close();

  /** A bar when a terminal is attached, lines on {@code out} otherwise. */
  public static ProgressDisplay open(String task, long total, PrintWriter out) {
    return System.console() != null ? new Bar(task, total) : new Lines(task, total, out, Duration.ofSeconds(2));
  }

  private static final class Bar extends ProgressDisplay {
    private final ProgressBar bar;

    Bar(String task, long total) {
      this.bar = new ProgressBarBuilder().setTaskName(task).setInitialMax(total).setStyle(ProgressBarStyle.ASCII)
          .setUpdateIntervalMillis(200).setUnit(" transfers", 1).build();
    }

    @Override
    public void update(long done, String status) {
      bar.stepTo(done);
      bar.setExtraMessage(status);
    }

    @Override
    public void close() {
      bar.close();
    }
  }

  private static final class Lines extends ProgressDisplay {
    private final String task;
    private final long total;
    private final PrintWriter out;
    private final long everyNanos;
    private final long started = System.nanoTime();
    private long lastPrinted;
    private long lastDone = -1;

    Lines(String task, long total, PrintWriter out, Duration every) {
      this.task = task;
      this.total = total;
      this.out = out;
      this.everyNanos = every.toNanos();
      this.lastPrinted = started;
    }

    @Override
    public void update(long done, String status) {
      long now = System.nanoTime();
      if ((done != lastDone && now - lastPrinted >= everyNanos) || (done == total && lastDone != total)) {
        out.printf("%s %d/%d transfers %s (%.1f s)%n", task, done, total, status, (now - started) / 1e9);
        out.flush();
        lastPrinted = now;
        lastDone = done;
      }
    }

    @Override
    public void close() {
      out.flush();
    }
  }
}
