package io.inferencegateway.lab.soak;

import java.util.Comparator;
import java.util.EnumMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;

/** What a soak did and found: the table, and the history a failure is replayed from (seed, faults, requests). */
record SoakReport(SoakSettings settings, int planned, List<Fault> faults, List<FaultTimeline.Entry> timeline,
                  InvariantTable table, List<CallOutcome> outcomes, Map<String, Long> excused) {

    boolean passed() {
        return table.allHold();
    }

    String summary() {
        Map<Fault.Kind, Long> byKind = new EnumMap<>(Fault.Kind.class);
        timeline.forEach(e -> byKind.merge(e.fault.kind(), 1L, Long::sum));
        long overlapping = timeline.stream().filter(e -> timeline.stream().anyMatch(o -> o != e
                && o.fault.durationMillis() > 0 && e.fault.durationMillis() > 0
                && o.injectedAt < e.healedAt && e.injectedAt < o.healedAt)).count();
        Map<String, Long> byOutcome = new TreeMap<>();
        outcomes.forEach(o -> byOutcome.merge(o.kind() == CallOutcome.Kind.ERROR_RESPONSE
                ? o.status() + " " + o.code() : o.kind().name().toLowerCase(Locale.ROOT), 1L, Long::sum));
        return String.format(Locale.ROOT, "seed %d, %d s of load, %d requests; %d faults injected (%s), %d of them "
                        + "overlapping another%noutcomes: %s%n%s", settings.seed(), settings.duration().toSeconds(),
                planned, timeline.size(), byKind, overlapping, byOutcome, table.render());
    }

    String history() {
        StringBuilder sb = new StringBuilder();
        sb.append("replay: --seed ").append(settings.seed()).append(" --seconds ")
                .append(settings.duration().toSeconds()).append(" --rate ").append(settings.rate()).append('\n');
        sb.append(summary()).append('\n');
        sb.append(table.violationsReport()).append('\n');
        sb.append("fault timeline (s from the load's start):\n");
        timeline.stream().sorted(Comparator.comparingLong(e -> e.injectedAt))
                .forEach(e -> sb.append("  ").append(e).append('\n'));
        sb.append("failed requests:\n");
        outcomes.stream().filter(CallOutcome::failed).sorted(Comparator.comparingLong(CallOutcome::sentAtMillis))
                .forEach(o -> sb.append("  ").append(o).append('\n'));
        return sb.toString();
    }
}
