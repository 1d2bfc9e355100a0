package io.inferencegateway.lab.soak;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The invariants' tally: for each, how many times it was checked and every violation with what broke it. Threads of
 * the run record into it as they check (continuously) and at the end; {@link #render} prints the table.
 */
final class InvariantTable {

    /** Violations kept per invariant for the history; the count goes on. */
    private static final int KEPT = 50;

    private static final class Row {
        long checked;
        long violations;
        final List<String> examples = new ArrayList<>();
        String note = "";
    }

    private final Map<String, Row> rows = new LinkedHashMap<>();

    synchronized void declare(String invariant) {
        rows.computeIfAbsent(invariant, k -> new Row());
    }

    synchronized void pass(String invariant) {
        rows.computeIfAbsent(invariant, k -> new Row()).checked++;
    }

    synchronized void check(String invariant, boolean holds, String whatBroke) {
        Row r = rows.computeIfAbsent(invariant, k -> new Row());
        r.checked++;
        if (!holds) {
            r.violations++;
            if (r.examples.size() < KEPT) {
                r.examples.add(whatBroke);
            }
        }
    }

    synchronized void note(String invariant, String note) {
        rows.computeIfAbsent(invariant, k -> new Row()).note = note;
    }

    synchronized long violations() {
        return rows.values().stream().mapToLong(r -> r.violations).sum();
    }

    synchronized String render() {
        int width = rows.keySet().stream().mapToInt(String::length).max().orElse(10);
        StringBuilder sb = new StringBuilder();
        sb.append(String.format(Locale.ROOT, "| %-" + width + "s | %9s | %10s | %-7s | %s%n", "invariant", "checked",
                "violations", "verdict", "notes"));
        sb.append("|").append("-".repeat(width + 2)).append("|----------:|-----------:|---------|-------|\n");
        rows.forEach((name, r) -> sb.append(String.format(Locale.ROOT, "| %-" + width + "s | %9d | %10d | %-7s | %s%n",
                name, r.checked, r.violations, r.violations == 0 && r.checked > 0 ? "holds" : r.checked == 0
                        ? "unchecked" : "BROKEN", r.note)));
        return sb.toString();
    }

    synchronized boolean allHold() {
        return rows.values().stream().allMatch(r -> r.violations == 0 && r.checked > 0);
    }

    synchronized String violationsReport() {
        StringBuilder sb = new StringBuilder();
        rows.forEach((name, r) -> {
            if (r.violations > 0) {
                sb.append(name).append(": ").append(r.violations).append(" violation(s)\n");
                r.examples.forEach(e -> sb.append("  ").append(e).append('\n'));
            }
        });
        return sb.toString();
    }
}
