package io.inferencegateway.lab.bench.report;

import java.util.ArrayList;
import java.util.List;

import com.fasterxml.jackson.annotation.JsonProperty;

import io.inferencegateway.lab.bench.load.ConversationRecording;
import io.inferencegateway.lab.bench.load.RequestResult;
import io.inferencegateway.lab.bench.workload.ConversationPlan;

/**
 * What one conversations run showed: first-token latency by how far into its conversation a turn is, how much of the
 * prompts the pods found in their prefix caches, and how often a turn was served where its previous turn was.
 *
 * @param turns        turns planned
 * @param errors       turns that did not end OK (refusals included)
 * @param hitRate      cached prompt tokens / prompt tokens, over the turns that ended OK with a cached-token count
 * @param samePod      share of turns (the 2nd on) served on the pod of their conversation's previous turn, over those
 *                     where both pods are known; NaN when none
 * @param sameReplica  share of those turns sent to the same gateway replica as the previous turn (1 with one)
 * @param idealHitRate the hit rate if every turn found its previous turn's prompt cached (its full 16-token blocks)
 * @param busiestPod   the largest share of the turns (with a known pod) that one pod served
 * @param busiestPodTurns the turns the busiest pod of the fleet served
 * @param idlestPodTurns  the turns the idlest pod of the fleet served: 0 when some pod served none
 * @param preemptions  running requests the pods evicted for lack of KV blocks during the run; -1 when unknown
 * @param byTurn       the buckets of {@link #BUCKETS}
 */
public record ConversationSummary(String label, String policy, int replicas, int conversations, int turns, int errors,
                                  LatencySummary ttft, double hitRate, double samePod, double sameReplica,
                                  double idealHitRate, double busiestPod, int busiestPodTurns, int idlestPodTurns,
                                  long preemptions, List<TurnBucket> byTurn) {

    /** Tokens per KV block: what a pod can find cached of a prompt is whole blocks. */
    static final int BLOCK_TOKENS = 16;

    /** Turn ranges the report splits by: the first turn, the early ones, the middle ones, the long tail. */
    public static final List<TurnBucket.Range> BUCKETS = List.of(new TurnBucket.Range("1", 1, 1),
            new TurnBucket.Range("2-4", 2, 4), new TurnBucket.Range("5-8", 5, 8),
            new TurnBucket.Range("9+", 9, Integer.MAX_VALUE));

    /** The turns of one range: how many, their TTFT (OK turns), and their prefix-cache hit rate. */
    public record TurnBucket(String range, int turns, LatencySummary ttft, double hitRate) {

        public record Range(String name, int from, int to) {
            boolean contains(int turn) {
                return turn >= from && turn <= to;
            }
        }
    }

    /** A run whose fleet is taken to be the pods that served a turn, its preemptions unknown. */
    public static ConversationSummary of(String label, String policy, int replicas, ConversationRecording rec) {
        return of(label, policy, replicas, rec, 0, -1);
    }

    /**
     * @param fleetPods   pods in the fleet, so that a pod that served no turn counts as 0 turns; pods that served a
     *                    turn count whatever it is
     * @param preemptions what the pods counted during the run; -1 when unknown
     */
    public static ConversationSummary of(String label, String policy, int replicas, ConversationRecording rec,
                                         int fleetPods, long preemptions) {
        ConversationPlan plan = rec.plan();
        List<RequestResult> results = rec.results();
        int n = plan.turnCount();
        int[] turnOf = new int[n];
        int[] previous = new int[n];
        for (ConversationPlan.Conversation c : plan.conversations()) {
            int prev = -1;
            for (ConversationPlan.Turn t : c.turns()) {
                turnOf[t.index()] = t.turn();
                previous[t.index()] = prev;
                prev = t.index();
            }
        }
        List<TurnBucket> buckets = new ArrayList<>();
        for (TurnBucket.Range range : BUCKETS) {
            buckets.add(bucket(range, results, rec.cachedTokens(), turnOf));
        }
        int errors = 0;
        for (RequestResult r : results) {
            if (!r.ok()) {
                errors++;
            }
        }
        long ideal = 0;
        long prompts = 0;
        for (ConversationPlan.Conversation c : plan.conversations()) {
            int before = 0;
            for (ConversationPlan.Turn t : c.turns()) {
                int tokens = t.spec().promptTokens();
                ideal += before / BLOCK_TOKENS * BLOCK_TOKENS;
                prompts += tokens;
                before = tokens;
            }
        }
        java.util.Map<String, Integer> perPod = new java.util.HashMap<>();
        int known = 0;
        for (String pod : rec.servedBy()) {
            if (pod != null) {
                perPod.merge(pod, 1, Integer::sum);
                known++;
            }
        }
        int busiest = perPod.values().stream().mapToInt(Integer::intValue).max().orElse(0);
        int idlest = perPod.size() < fleetPods ? 0
                : perPod.values().stream().mapToInt(Integer::intValue).min().orElse(0);
        int pairs = 0;
        int samePod = 0;
        int sameReplica = 0;
        for (int i = 0; i < n; i++) {
            int p = previous[i];
            if (p < 0 || rec.servedBy()[i] == null || rec.servedBy()[p] == null) {
                continue;
            }
            pairs++;
            if (rec.servedBy()[i].equals(rec.servedBy()[p])) {
                samePod++;
            }
            if (rec.targetOf()[i] == rec.targetOf()[p]) {
                sameReplica++;
            }
        }
        return new ConversationSummary(label, policy, replicas, plan.conversations().size(), n, errors,
                ttft(results, turnOf, new TurnBucket.Range("all", 1, Integer.MAX_VALUE)),
                hitRate(results, rec.cachedTokens(), turnOf, new TurnBucket.Range("all", 1, Integer.MAX_VALUE)),
                pairs == 0 ? Double.NaN : (double) samePod / pairs, pairs == 0 ? Double.NaN : (double) sameReplica / pairs,
                prompts == 0 ? Double.NaN : (double) ideal / prompts, known == 0 ? Double.NaN : (double) busiest / known,
                busiest, idlest, preemptions, buckets);
    }

    private static TurnBucket bucket(TurnBucket.Range range, List<RequestResult> results, int[] cached, int[] turnOf) {
        int count = 0;
        for (RequestResult r : results) {
            if (range.contains(turnOf[r.index()])) {
                count++;
            }
        }
        return new TurnBucket(range.name(), count, ttft(results, turnOf, range), hitRate(results, cached, turnOf, range));
    }

    private static LatencySummary ttft(List<RequestResult> results, int[] turnOf, TurnBucket.Range range) {
        long[] samples = results.stream().filter(r -> r.ok() && r.ttftNanos() >= 0 && range.contains(turnOf[r.index()]))
                .mapToLong(RequestResult::ttftNanos).toArray();
        return LatencySummary.of(Distribution.of(samples));
    }

    private static double hitRate(List<RequestResult> results, int[] cached, int[] turnOf, TurnBucket.Range range) {
        long prompt = 0;
        long hit = 0;
        for (RequestResult r : results) {
            int c = cached[r.index()];
            if (r.ok() && c >= 0 && range.contains(turnOf[r.index()])) {
                prompt += r.promptTokens();
                hit += c;
            }
        }
        return prompt == 0 ? Double.NaN : (double) hit / prompt;
    }

    /**
     * The busiest pod's turns over the idlest pod's, among the fleet's pods: 1 when every pod served alike, infinite
     * when some pod served none while another served some, NaN when no turn's pod is known.
     */
    @JsonProperty
    public double podTurnsMaxOverMin() {
        if (busiestPodTurns == 0) {
            return Double.NaN;
        }
        return idlestPodTurns == 0 ? Double.POSITIVE_INFINITY : (double) busiestPodTurns / idlestPodTurns;
    }

    public TurnBucket bucket(String range) {
        return byTurn.stream().filter(b -> b.range().equals(range)).findFirst().orElseThrow();
    }
}
