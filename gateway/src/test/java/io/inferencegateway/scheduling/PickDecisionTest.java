package io.inferencegateway.scheduling;

import static io.inferencegateway.domain.SchedulingPolicy.decideNow;
import static io.inferencegateway.scheduling.Scenarios.adapter;
import static io.inferencegateway.scheduling.Scenarios.base;
import static io.inferencegateway.scheduling.Scenarios.pod;
import static io.inferencegateway.scheduling.Scenarios.prompt;
import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;
import java.util.function.UnaryOperator;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import io.inferencegateway.config.PoolConfig;
import io.inferencegateway.domain.Endpoint;
import io.inferencegateway.domain.InFlightRequests;
import io.inferencegateway.domain.InferenceRequest;
import io.inferencegateway.domain.NanoClock;
import io.inferencegateway.domain.PickDecision;
import io.inferencegateway.domain.PickReason;
import io.inferencegateway.metrics.EndpointMetrics;
import io.inferencegateway.scheduling.Scenarios.Scrape;
import io.inferencegateway.scheduling.framework.SchedulerProfile;
import io.inferencegateway.scheduling.plugins.LoraAffinityScorer;
import io.inferencegateway.scheduling.plugins.MaxScorePicker;
import io.inferencegateway.scheduling.plugins.LoadScorer;
import io.inferencegateway.scheduling.plugins.SaturationFilter;

/**
 * The reason a GPU-aware decision gives, the cached tokens it expects and the filter removals it reports, one
 * situation per row. Default weights unless a row builds its own profile.
 */
class PickDecisionTest {

    private static final long MS = 1_000_000L;
    private static final Endpoint P1 = pod(1);
    private static final Endpoint P2 = pod(2);
    private static final Endpoint P3 = pod(3);
    private static final List<Endpoint> TWO = List.of(P1, P2);
    private static final List<Endpoint> THREE = List.of(P1, P2, P3);
    /** Tokens per block of the prefix scorer's default geometry: 64 characters at 4 characters a token. */
    private static final int BLOCK_TOKENS = 16;

    /** One situation's state: scrapes, in-flight counts and what the policy reported. */
    static final class Fleet {
        final long[] now = {1_000 * MS};
        final NanoClock clock = () -> now[0];
        final InFlightRequests inFlight = new InFlightRequests();
        final Map<Endpoint, EndpointMetrics> scrapes = new HashMap<>();
        final List<String> filtered = new ArrayList<>();
        final SchedulerEvents events = new SchedulerEvents() {
            @Override
            public void fallbackChanged(String pool, boolean active) {
            }

            @Override
            public void filtered(String pool, String filter, String outcome, int endpoints) {
                filtered.add(filter + " " + outcome + "=" + endpoints);
            }
        };

        Fleet scraped(Endpoint e, UnaryOperator<Scrape> what) {
            scrapes.put(e, what.apply(Scenarios.scrape().at(now[0]).dispatched(inFlight.snapshot(e))).build());
            return this;
        }

        Fleet idle(Endpoint... es) {
            for (Endpoint e : es) {
                scraped(e, s -> s.kv(0.1));
            }
            return this;
        }

        PluginPolicy defaults() {
            return PluginPolicy.forPool(PoolConfig.builder(Scenarios.MODEL).name("p").loraAdapters(List.of("sql"))
                    .endpoints(List.of(P1)).build(), scrapes::get, inFlight, clock,
                    events, () -> 0L);
        }

        PluginPolicy with(SchedulerProfile profile) {
            return PluginPolicy.of("p", profile, Duration.ofMillis(200), scrapes::get, inFlight, clock, events);
        }

        /** What the gateway does: decide, then count the request as started on the chosen endpoint. */
        PickDecision send(PluginPolicy policy, InferenceRequest r, List<Endpoint> candidates) {
            PickDecision d = decideNow(policy, r, candidates);
            inFlight.started(d.endpoint(), r.promptTokensEstimate());
            return d;
        }
    }

    record Expected(Endpoint endpoint, PickReason reason, int cachedTokens, List<String> filtered) {
    }

    private static Arguments row(String situation, Function<Fleet, PickDecision> act, Expected expected) {
        return Arguments.of(situation, act, expected);
    }

    private static Expected expect(Endpoint e, PickReason reason, int cachedTokens, String... filtered) {
        return new Expected(e, reason, cachedTokens, List.of(filtered));
    }

    static Stream<Arguments> situations() {
        String doc = prompt("doc", 10);
        return Stream.of(
                row("no pod has fresh metrics: fallback to the fewest in flight", f -> {
                    f.inFlight.started(P1, 1);
                    return decideNow(f.defaults(), base("hi"), TWO);
                }, expect(P2, PickReason.FALLBACK, 0)),
                row("metrics went stale everywhere: fallback, even for a cached prompt", f -> {
                    f.idle(P1, P2);
                    PluginPolicy policy = f.defaults();
                    f.send(policy, base(doc), TWO);
                    f.now[0] += 250 * MS;
                    return decideNow(policy, base(doc), List.of(P2, P1));
                }, expect(P2, PickReason.FALLBACK, 0)),
                row("a pool of one pod", f -> decideNow(f.idle(P1).defaults(), base("hi"), List.of(P1)),
                        expect(P1, PickReason.ONLY_CANDIDATE, 0)),
                row("the saturation filter leaves one pod", f -> decideNow(f.idle(P2).scraped(P1, s -> s.waiting(6))
                        .defaults(), base("hi"), TWO),
                        expect(P2, PickReason.ONLY_CANDIDATE, 0, "saturation-filter saturated=1")),
                row("a stale pod is filtered, the shorter queue of the rest decides", f -> {
                    f.idle(P1);
                    f.now[0] += 250 * MS;
                    f.scraped(P2, s -> s.waiting(2)).scraped(P3, s -> s.waiting(0));
                    return decideNow(f.defaults(), base("hi"), THREE);
                }, expect(P3, PickReason.LEAST_LOADED, 0, "saturation-filter stale=1")),
                row("every pod saturated: the filter fails open, the least bad one wins",
                        f -> decideNow(f.scraped(P1, s -> s.waiting(9).kv(0.9)).scraped(P2, s -> s.waiting(6).kv(0.85))
                                .defaults(), base("hi"), TWO),
                        expect(P2, PickReason.LEAST_LOADED, 0, "saturation-filter failed_open=1")),
                row("the LoRA filter keeps the one pod running the adapter",
                        f -> decideNow(f.scraped(P1, s -> s.waiting(3).kv(0.5).lora(Set.of("sql"), Set.of(), 2))
                                .scraped(P2, s -> s.kv(0.1).lora(Set.of(), Set.of(), 2))
                                .defaults(), adapter("sql"), List.of(P2, P1)),
                        expect(P1, PickReason.LORA_RESIDENT, 0, "lora-affinity-filter adapter_missing=1")),
                row("two pods run the adapter: the LoRA filter keeps both, the queue decides",
                        f -> decideNow(f.scraped(P1, s -> s.waiting(3).kv(0.2).lora(Set.of("sql"), Set.of(), 2))
                                .scraped(P2, s -> s.waiting(0).kv(0.2).lora(Set.of("sql"), Set.of(), 2))
                                .scraped(P3, s -> s.kv(0.1).lora(Set.of("a", "b"), Set.of(), 2))
                                .defaults(), adapter("sql"), THREE),
                        expect(P2, PickReason.LEAST_LOADED, 0, "lora-affinity-filter adapter_missing=1")),
                row("without the LoRA filter the affinity scorer decides",
                        f -> decideNow(f.scraped(P1, s -> s.kv(0.2).lora(Set.of(), Set.of(), 2))
                                .scraped(P2, s -> s.kv(0.2).lora(Set.of("sql"), Set.of(), 2))
                                .with(SchedulerProfile.builder().filter(new SaturationFilter())
                                        .scorer(LoadScorer.queue(), 2).scorer(new LoraAffinityScorer(), 2)
                                        .picker(new MaxScorePicker(() -> 0L)).build()),
                                adapter("sql"), TWO),
                        expect(P2, PickReason.LORA_RESIDENT, 0)),
                row("a repeated prompt goes back to the pod that holds it", f -> {
                    f.idle(P1, P2, P3);
                    PluginPolicy policy = f.defaults();
                    Endpoint first = f.send(policy, base(doc), THREE).endpoint();
                    assertThat(first).isEqualTo(P1);
                    return decideNow(policy, base(doc), List.of(P3, P2, P1));
                }, expect(P1, PickReason.PREFIX_HIT, 10 * BLOCK_TOKENS)),
                row("most of the prompt cached on a pod", f -> {
                    f.idle(P1, P2);
                    PluginPolicy policy = f.defaults();
                    f.send(policy, base(prompt("doc", 9)), TWO);
                    return decideNow(policy, base(prompt("doc", 9) + prompt("new", 1)), List.of(P2, P1));
                }, expect(P1, PickReason.PREFIX_HIT, 9 * BLOCK_TOKENS)),
                row("a cached prefix that is outweighed by the queue behind it", f -> {
                    f.idle(P2);
                    f.scraped(P1, s -> s.kv(0.1));
                    PluginPolicy policy = f.defaults();
                    f.send(policy, base(prompt("doc", 2) + prompt("x", 18)), List.of(P1));
                    f.scraped(P1, s -> s.waiting(4).kv(0.1)); // 4 queued: queue 0 against 1 is worth 2
                    return decideNow(policy, base(prompt("doc", 2) + prompt("y", 18)), TWO);
                }, expect(P2, PickReason.LEAST_LOADED, 0)),
                row("the shorter queue decides", f -> decideNow(f.scraped(P1, s -> s.waiting(3).kv(0.1))
                        .scraped(P2, s -> s.waiting(0).kv(0.1)).defaults(), base("hi"), TWO),
                        expect(P2, PickReason.LEAST_LOADED, 0)),
                row("the freer KV cache decides", f -> decideNow(f.scraped(P1, s -> s.kv(0.6))
                        .scraped(P2, s -> s.kv(0.2)).defaults(), base("hi"), TWO),
                        expect(P2, PickReason.LEAST_LOADED, 0)),
                row("idle pods tie on everything: one of the equally loaded",
                        f -> decideNow(f.idle(P1, P2, P3).defaults(), base("hi"), THREE),
                        expect(P1, PickReason.LEAST_LOADED, 0)),
                row("a picker that passes over the best total: its own rule",
                        f -> decideNow(f.scraped(P1, s -> s.waiting(0).kv(0.1)).scraped(P2, s -> s.waiting(3).kv(0.1))
                                .with(SchedulerProfile.builder().scorer(LoadScorer.queue(), 1)
                                        .picker((cycle, endpoints, totals) -> endpoints.get(endpoints.size() - 1)).build()),
                                base("hi"), TWO),
                        expect(P2, PickReason.POLICY, 0)));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("situations")
    void theDecisionSaysWhatDecidedIt(String situation, Function<Fleet, PickDecision> act, Expected expected) {
        Fleet fleet = new Fleet();
        PickDecision d = act.apply(fleet);
        assertThat(d.endpoint()).as("chosen").isEqualTo(expected.endpoint());
        assertThat(d.reason()).as("reason").isEqualTo(expected.reason());
        assertThat(d.expectedCachedTokens()).as("expected cached tokens").isEqualTo(expected.cachedTokens());
        assertThat(fleet.filtered).as("filter removals reported").containsExactlyElementsOf(expected.filtered());
    }

    @Test
    void chooseIsTheEndpointOfTheDecisionAndCandidatesAreCounted() {
        Fleet f = new Fleet().idle(P1, P2, P3);
        f.scraped(P1, s -> s.waiting(2).kv(0.1));
        PluginPolicy policy = f.defaults();
        PickDecision d = decideNow(policy, base("hi"), THREE);
        assertThat(d.candidates()).isEqualTo(3);
        assertThat(decideNow(policy, base("hi"), THREE).endpoint()).isEqualTo(d.endpoint()).isEqualTo(P2);
    }

    @Test
    void removalsAreReportedOncePerRequestAndNotWhenNothingWasRemoved() {
        Fleet f = new Fleet().idle(P1, P2);
        PluginPolicy policy = f.defaults();
        decideNow(policy, base("hi"), TWO);
        assertThat(f.filtered).isEmpty();
        f.scraped(P1, s -> s.waiting(7).kv(0.1));
        decideNow(policy, base("hi"), TWO);
        decideNow(policy, base("hi"), TWO);
        assertThat(f.filtered).containsExactly("saturation-filter saturated=1", "saturation-filter saturated=1");
    }
}
