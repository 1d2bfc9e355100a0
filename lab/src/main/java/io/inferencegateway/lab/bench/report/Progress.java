package io.inferencegateway.lab.bench.report;

import java.io.PrintStream;
import java.util.Locale;

import io.inferencegateway.lab.bench.load.LiveCounters;

/**
 * Shows a running load: a bar redrawn in place on a terminal, or a plain line every few seconds when
 * the output goes to a file or CI log. Reads the generator's counters from its own thread.
 */
public final class Progress implements AutoCloseable {

    private static final long TTY_PERIOD_MS = 250;
    private static final long PLAIN_PERIOD_MS = 5000;
    private static final int BAR_WIDTH = 30;

    private final PrintStream out;
    private final boolean terminal;
    private final String label;
    private final LiveCounters counters;
    private final long startNanos = System.nanoTime();
    private final Thread thread;
    private volatile boolean running = true;

    private Progress(PrintStream out, boolean terminal, String label, LiveCounters counters) {
        this.out = out;
        this.terminal = terminal;
        this.label = label;
        this.counters = counters;
        this.thread = new Thread(this::loop, "bench-progress");
        thread.setDaemon(true);
        thread.start();
    }

    /** Starts showing progress; {@code terminal} chooses the redrawn bar over plain lines. */
    public static Progress start(PrintStream out, boolean terminal, String label, LiveCounters counters) {
        return new Progress(out, terminal, label, counters);
    }

    /** Whether the standard streams are attached to a terminal. */
    public static boolean onTerminal() {
        return System.console() != null;
    }

    private void loop() {
        long period = terminal ? TTY_PERIOD_MS : PLAIN_PERIOD_MS;
        while (running) {
            try {
                Thread.sleep(period);
            } catch (InterruptedException e) {
                return;
            }
            if (running) {
                print(false);
            }
        }
    }

    private synchronized void print(boolean last) {
        String line = line();
        if (terminal) {
            out.print("\r\033[2K" + line + (last ? "\n" : ""));
        } else {
            out.println(line);
        }
        out.flush();
    }

    String line() {
        int planned = Math.max(1, counters.planned());
        int done = counters.completed();
        double share = Math.min(1, (double) done / planned);
        int filled = (int) Math.round(share * BAR_WIDTH);
        String bar = terminal ? "[" + "#".repeat(filled) + ".".repeat(BAR_WIDTH - filled) + "] " : "";
        return String.format(Locale.ROOT, "%s %s%3.0f%%  %d/%d done, %d sent, %d in flight, %d errors, %.0f s",
                label, bar, share * 100, done, counters.planned(), counters.sent(), counters.inFlight(), counters.errors(),
                (System.nanoTime() - startNanos) / 1e9);
    }

    @Override
    public void close() {
        running = false;
        thread.interrupt();
        try {
            thread.join(1000);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        print(true);
    }
}
