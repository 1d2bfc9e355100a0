package io.inferencegateway.scheduling.latency;

import static io.inferencegateway.scheduling.Scenarios.pod;
import static io.inferencegateway.scheduling.Scenarios.scrape;
import static io.inferencegateway.scheduling.Scenarios.states;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.util.Arrays;
import java.util.List;
import java.util.SplittableRandom;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import io.inferencegateway.domain.InferenceRequest;
import io.inferencegateway.domain.LatencyPrediction;
import io.inferencegateway.domain.LatencyTargets;
import io.inferencegateway.metrics.EndpointMetrics;
import io.inferencegateway.scheduling.framework.EndpointState;

/**
 * The predictor as a table of situations: what it predicts before it has learned, how close it gets on a pool whose
 * latency follows a known law, how fast it follows a pod that slows down, and that it keeps nothing of pods gone.
 * The "true" latency of these tests is a law of the features the predictor sees (prefill of the uncached prompt, the
 * queue ahead, the batch), times each pod's speed, plus noise: what a real engine's latency looks like to a gateway.
 */
class LatencyPredictorTest {

    private final SplittableRandom random = new SplittableRandom(7);
    private final LatencyPredictor predictor = new LatencyPredictor("pool");

    /** Milliseconds to the first token on a pod of speed 1: 20 + 31 per 1k uncached tokens + 45 per queued request. */
    static double trueTtft(EndpointState s, InferenceRequest r, int cached) {
        return 20 + 31 * (r.promptTokensEstimate() - cached) / 1000.0 + 45 * s.waiting() + 4 * s.running() / 32.0;
    }

    /** Milliseconds per output token on a pod of speed 1: 7 + 2.4 per 32 running. */
    static double trueTpot(EndpointState s) {
        return 7 + 2.4 * s.running() / 32.0 + 0.5 * s.waiting();
    }

    /** A random load on pod {@code i}. */
    private EndpointState state(int i) {
        return on(i, scrape(random.nextInt(0, 8), random.nextInt(0, 64), random.nextDouble(0, 0.8)));
    }

    /** The state of pod {@code i} (numbered from 1) scraped as {@code m}, nothing sent since. */
    private static EndpointState on(int i, EndpointMetrics m) {
        EndpointMetrics[] scrapes = new EndpointMetrics[i];
        Arrays.fill(scrapes, m);
        return states(scrapes).get(i - 1);
    }

    private InferenceRequest request() {
        int tokens = random.nextInt(64, 4096);
        return InferenceRequest.builder("m").promptTokensEstimate(tokens).stream(true).maxTokens(256)
                .targets(new LatencyTargets(500, 50)).build();
    }

    /** The predictor's features of {@code r} on {@code s}, whose pod caches {@code cached} of its prompt tokens. */
    private static double[] features(EndpointState s, InferenceRequest r, int cached) {
        double[] x = new double[LatencyPredictor.FEATURES];
        LatencyPredictor.features(x, s.waiting(), s.running(), s.kvUsage(), r.promptTokensEstimate() - cached, 0,
                r.adapter() != null && !s.runningAdapters().contains(r.adapter()));
        return x;
    }

    /** Predicts {@code r} on {@code s} into the state, as the latency predictions producer does. */
    private void predict(EndpointState s, InferenceRequest r, int cached) {
        double[] x = features(s, r, cached);
        double ttft = predictor.ttftMillis(s.endpoint(), x);
        double tpot = predictor.tpotMillis(s.endpoint(), x);
        s.predicted(ttft, tpot, LatencyPrediction.ratio(ttft, tpot, predictor.outputTokens(r), r.stream(),
                r.targets()));
    }

    /** The prediction a pick on {@code s} would carry, to learn from. */
    private LatencyPrediction prediction(EndpointState s, InferenceRequest r, int cached) {
        return predictor.prediction(s.endpoint(), features(s, r, cached), r, 0);
    }

    /** One request on pod {@code i} whose latency is the law times {@code slowness}, with ±5% noise; learned. */
    private LatencyPrediction serve(int i, double slowness) {
        EndpointState s = state(i);
        InferenceRequest r = request();
        LatencyPrediction p = prediction(s, r, 0);
        double noise = 1 + random.nextDouble(-0.05, 0.05);
        p.learn(trueTtft(s, r, 0) * slowness * noise, trueTpot(s) * slowness * noise, 100);
        return p;
    }

    /**
     * One plain body on pod {@code i} with {@code outputTokens} tokens: its first token as the law says times
     * {@code ttftSlowness}, each token after it times {@code tpotSlowness}, ±5% noise on the whole; learned.
     */
    private void serveWhole(int i, double ttftSlowness, double tpotSlowness, int outputTokens) {
        EndpointState s = state(i);
        InferenceRequest r = request().toBuilder().stream(false).build();
        LatencyPrediction p = prediction(s, r, 0);
        double noise = 1 + random.nextDouble(-0.05, 0.05);
        double total = (trueTtft(s, r, 0) * ttftSlowness + (outputTokens - 1) * trueTpot(s) * tpotSlowness) * noise;
        p.learnWhole(Math.round(total * 1e6), outputTokens); // picked at 0
    }

    /** Mean |predicted − true| / true over 200 loads on pod {@code i}: of the first token, or of the time per token. */
    private double error(int i, boolean ttft, double slowness) {
        double error = 0;
        for (int n = 0; n < 200; n++) {
            EndpointState s = state(i);
            InferenceRequest r = request();
            predict(s, r, 0);
            double truth = (ttft ? trueTtft(s, r, 0) : trueTpot(s)) * slowness;
            error += Math.abs((ttft ? s.predictedTtftMillis() : s.predictedTpotMillis()) - truth) / truth;
        }
        return error / 200;
    }

    @Test
    void beforeItHasLearnedItPredictsNothingAndTheGatewayActsAsWithoutIt() {
        EndpointState s = state(1);
        predict(s, request(), 0);
        assertThat(s.predictedTtftMillis()).isNaN();
        assertThat(s.latencyRatio()).as("no ratio: the filter and scorer leave the pod alone").isNaN();
        assertThat(prediction(s, request(), 0).predicted()).isFalse();

        for (int n = 1; n < LatencyPredictor.MIN_SAMPLES; n++) {
            serve(1, 1);
        }
        assertThat(predictor.ready()).isFalse();
        serve(1, 1);
        assertThat(predictor.ready()).as("after " + LatencyPredictor.MIN_SAMPLES + " responses").isTrue();
        predict(s, request(), 0);
        assertThat(s.predictedTtftMillis()).isPositive();
    }

    @Test
    void learnsALatencyLawWithinTenPercent() {
        for (int n = 0; n < 400; n++) {
            serve(1 + n % 4, 1);
        }
        double error = 0;
        int count = 200;
        for (int n = 0; n < count; n++) {
            EndpointState s = state(1 + n % 4);
            InferenceRequest r = request();
            predict(s, r, 0);
            error += Math.abs(s.predictedTtftMillis() - trueTtft(s, r, 0)) / trueTtft(s, r, 0);
        }
        assertThat(error / count).as("TTFT mean absolute percentage error").isLessThan(0.10);
        assertThat(predictor.ttftAccuracy().mape()).as("what /metrics publishes").isLessThan(0.10);
        assertThat(predictor.ttftAccuracy().bias()).isBetween(-0.05, 0.05);
        assertThat(predictor.tpotAccuracy().mape()).isLessThan(0.10);
    }

    @Test
    void aCachedPrefixMakesAPodFaster() {
        for (int n = 0; n < 300; n++) {
            serve(1, 1);
        }
        EndpointState s = state(1);
        InferenceRequest r = InferenceRequest.builder("m").promptTokensEstimate(4000).stream(true).maxTokens(256)
                .targets(new LatencyTargets(100, 0)).build();
        predict(s, r, 0);
        double cold = s.predictedTtftMillis();
        predict(s, r, 3500);
        assertThat(s.predictedTtftMillis()).isLessThan(cold - 3500 * 0.02);
    }

    @Test
    void anAdapterThePodDoesNotRunCostsItsLoad() {
        for (int n = 0; n < 300; n++) { // half the requests need their adapter loaded: 30 ms more
            EndpointState s = state(1);
            boolean load = n % 2 == 0;
            InferenceRequest r = InferenceRequest.builder("sql").adapter(load ? "sql" : null).promptTokensEstimate(500)
                    .stream(true).build();
            LatencyPrediction p = prediction(s, r, 0);
            p.learn(trueTtft(s, r, 0) + (load ? 30 : 0), trueTpot(s), 100);
        }
        EndpointState s = state(1);
        InferenceRequest adapter = InferenceRequest.builder("sql").adapter("sql").promptTokensEstimate(500).stream(true)
                .maxTokens(64).targets(new LatencyTargets(100, 0)).build();
        predict(s, adapter, 0);
        double loading = s.predictedTtftMillis();
        predict(s, adapter.toBuilder().adapter(null).build(), 0);
        assertThat(loading - s.predictedTtftMillis()).isCloseTo(30, within(5.0));
    }

    @Test
    void learnsThatOnePodIsHalfAsFastAndFollowsAPodThatSlowsDown() {
        for (int n = 0; n < 400; n++) {
            serve(1 + n % 2, n % 2 == 0 ? 1 : 2); // pod 2: an older GPU, half as fast
        }
        assertThat(ratioOfPods()).as("pod 2 over pod 1 at the same load").isCloseTo(2, within(0.3));

        for (int n = 0; n < 12; n++) { // pod 1 slows to a third of its speed
            serve(1, 3);
            serve(2, 2);
        }
        assertThat(1 / ratioOfPods()).as("within a dozen of its responses").isCloseTo(1.5, within(0.3));
    }

    @Test
    void aPodNeverHeardOfIsPredictedAsThePoolsAveragePodWhenTheFleetGotFasterAfterAColdStart() {
        for (int n = 0; n < 20; n++) { // a cold start: three times slower; the shared model learns that fast
            serve(1 + n % 2, 3);
        }
        for (int n = 0; n < 100; n++) { // warm: the pods that answer learn to be faster than the shared model
            serve(1 + n % 2, 1);
        }
        assertThat(ratio(1, 3)).as("pod 3, never heard of, over pod 1").isCloseTo(1, within(0.15));
    }

    /** Predicted TTFT of pod 2 over pod 1 for the same request at the same load. */
    private double ratioOfPods() {
        return ratio(1, 2);
    }

    /** Predicted TTFT of pod {@code b} over pod {@code a} for the same request at the same load. */
    private double ratio(int a, int b) {
        EndpointState one = state(a);
        EndpointState two = on(b, scrape(one.waiting(), one.running(), one.kvUsage()));
        InferenceRequest r = request();
        predict(one, r, 0);
        predict(two, r, 0);
        return two.predictedTtftMillis() / one.predictedTtftMillis();
    }

    @Test
    void keepsNothingOfPodsThatLeft() {
        for (int n = 0; n < 64; n++) {
            serve(1 + n % 8, 1);
        }
        assertThat(predictor.podsKnown()).isEqualTo(8);
        predictor.retain(List.of(pod(1), pod(2)));
        assertThat(predictor.podsKnown()).isEqualTo(2);
    }

    @Test
    void aRatioComparesThePredictionWithTheTargetsAndAPlainBodyWaitsForItsLastToken() {
        LatencyTargets targets = new LatencyTargets(500, 50);
        assertThat(LatencyPrediction.ratio(250, 10, 100, true, targets)).isEqualTo(0.5);
        assertThat(LatencyPrediction.ratio(250, 100, 100, true, targets)).as("TPOT decides").isEqualTo(2.0);
        assertThat(LatencyPrediction.ratio(250, 10, 101, false, targets))
                .as("a plain body's first byte comes after its 100 tokens; no TPOT to judge").isEqualTo(2.5);
        assertThat(LatencyPrediction.ratio(250, 10, 100, true, LatencyTargets.NONE)).isNaN();
    }

    @Test
    void plainBodiesOfShortAnswersAloneTeachItTheFirstToken() {
        for (int n = 0; n < 400; n++) {
            serveWhole(1 + n % 4, 1, 1, 4);
        }
        assertThat(predictor.samples()).as("each plain body is a sample").isEqualTo(400);
        assertThat(predictor.ready()).isTrue();
        // what is left of the error is the time per token it never measured (three tokens' worth of its prior)
        assertThat(error(1, true, 1)).as("TTFT mean absolute percentage error").isLessThan(0.15);
        assertThat(predictor.ttftAccuracy().count()).as("nothing measured the first token itself").isZero();
    }

    @Test
    void plainBodiesOfLongAnswersAloneTeachItTheTimePerToken() {
        for (int n = 0; n < 400; n++) {
            serveWhole(1 + n % 4, 1, 1, 256);
        }
        assertThat(predictor.ready()).isTrue();
        assertThat(error(1, false, 1)).as("TPOT mean absolute percentage error").isLessThan(0.10);
    }

    @Test
    void aOneTokenBodyIsItsFirstToken() {
        for (int n = 0; n < 400; n++) {
            serveWhole(1 + n % 4, 1, 50, 1); // the time per token cannot show in a body of one token
        }
        assertThat(error(1, true, 1)).isLessThan(0.10);
    }

    static Stream<Arguments> plainBodies() {
        return Stream.of(
                Arguments.of("a short answer shows a first token that came later", 2, 3.0, 1.0),
                Arguments.of("a long answer shows a decode that slowed", 256, 1.0, 3.0),
                Arguments.of("an answer between shows a pod that slowed as a whole", 16, 3.0, 3.0),
                Arguments.of("an answer between shows a pod that sped up as a whole", 16, 0.5, 0.5));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("plainBodies")
    void plainBodiesTeachAPodsChangeToThePartTheyShow(String name, int outputTokens, double ttftSlowness,
            double tpotSlowness) {
        for (int n = 0; n < 400; n++) {
            serve(1 + n % 2, 1);
        }
        for (int n = 0; n < 30; n++) { // then pod 1 changes, and answers in plain bodies
            serveWhole(1, ttftSlowness, tpotSlowness, outputTokens);
        }
        assertThat(error(1, true, ttftSlowness)).as("pod 1's first token").isLessThan(0.15);
        assertThat(error(1, false, tpotSlowness)).as("pod 1's time per token").isLessThan(0.15);
        // pod 2, silent meanwhile, fades a little (30 of FADE_SAMPLES' 200) towards the pool's average pod, which
        // pod 1's change moved
        assertThat(error(2, true, 1)).as("pod 2's first token").isLessThan(0.12);
    }

    @Test
    void aBodyWithoutOutputTokensTeachesNothing() {
        EndpointState s = state(1);
        prediction(s, request(), 0).learnWhole(50_000_000, -1);
        prediction(s, request(), 0).learnWhole(50_000_000, 0);
        assertThat(predictor.samples()).isZero();
        assertThat(predictor.podsKnown()).isZero();
    }

    @Test
    void theRankingSaysHowOftenThePodPredictedFasterWas() {
        assertThat(predictor.ranking().share()).as("before any pair").isNaN();
        for (int n = 0; n < 400; n++) {
            serve(1 + n % 4, n % 4 == 0 ? 2 : 1); // pod 1 an older GPU
        }
        assertThat(predictor.ranking().compared()).as("pairs of predicted streams on different pods").isPositive();
        assertThat(predictor.ranking().share()).isGreaterThan(0.9);
    }
}
