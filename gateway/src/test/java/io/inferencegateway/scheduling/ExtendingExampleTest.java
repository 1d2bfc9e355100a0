package io.inferencegateway.scheduling;

import static io.inferencegateway.domain.SchedulingPolicy.decideNow;
import static io.inferencegateway.scheduling.Scenarios.MODEL;
import static io.inferencegateway.scheduling.Scenarios.pod;
import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;

import io.inferencegateway.domain.Endpoint;
import io.inferencegateway.domain.InFlightRequests;
import io.inferencegateway.domain.InferenceRequest;
import io.inferencegateway.domain.ParsedBody;
import io.inferencegateway.domain.PickDecision;
import io.inferencegateway.domain.PickReason;
import io.inferencegateway.domain.RequestRecord;
import io.inferencegateway.metrics.EndpointMetrics;
import io.inferencegateway.scheduling.extending.RecentFirstTokenScorer;
import io.inferencegateway.scheduling.framework.PluginContext;
import io.inferencegateway.scheduling.framework.SchedulerProfile;
import io.inferencegateway.scheduling.plugins.MaxScorePicker;
import io.inferencegateway.testing.ProjectFiles;

/**
 * The worked example of docs/extending.md: a scorer whose factory brings a lifecycle plugin (it learns each pod's recent
 * time to first token) and a data producer (it attaches that to every request's candidates), each in a file of its
 * own. The doc shows the three files as they are here.
 */
class ExtendingExampleTest {

    private final long[] now = {1_000_000_000L};
    private final InFlightRequests inFlight = new InFlightRequests();
    private final Map<Endpoint, EndpointMetrics> scrapes = new HashMap<>();

    @Test
    void thePodWhoseFirstTokensCameSoonestWinsOnceTheLifecyclePluginHasHeardOfThem() throws Exception {
        PluginContext pool = PluginContext.forChecking(() -> 0L);
        SchedulerProfile profile = SchedulerProfile.builder()
                .scorer(RecentFirstTokenScorer.PLUGIN.create("example", Map.of(), pool), 1)
                .picker(new MaxScorePicker(() -> 0L)).build();
        PluginPolicy policy = new PluginPolicy("p", SchedulerProfiles.handBuilt(profile, pool), false, null,
                Duration.ofSeconds(1), () -> 1, scrapes::get, inFlight, () -> now[0], SchedulerEvents.NONE,
                pool.predictor());
        List<Endpoint> pods = List.of(pod(1), pod(2), pod(3));
        for (Endpoint e : pods) {
            scrapes.put(e, Scenarios.scrape().kv(0.1).at(now[0]).build());
        }
        InferenceRequest request = InferenceRequest.builder(MODEL).promptText("hi").stream(true).build();
        assertThat(decideNow(policy, request, pods).reason()).as("nothing heard yet: every pod scores 0")
                .isEqualTo(PickReason.LEAST_LOADED);

        answered(policy, pod(1), 300);
        answered(policy, pod(2), 100);
        PickDecision d = decideNow(policy, request, pods);

        assertThat(d.endpoint()).isEqualTo(pod(2));
        assertThat(d.reason()).isEqualTo(PickReason.LEAST_LOADED);
        policy.endpointsChanged(List.of(pod(1), pod(3)));
        assertThat(decideNow(policy, request, List.of(pod(1), pod(3))).endpoint()).isEqualTo(pod(1));
    }

    /** A streamed request placed on {@code pod} whose first token came {@code millis} after it arrived. */
    private static void answered(PluginPolicy policy, Endpoint pod, long millis) {
        RequestRecord record = new RequestRecord(0, 0, "POST", "/v1/chat/completions", "chat", null, null);
        record.parsed(ParsedBody.builder(MODEL).stream(true).build(), 0);
        record.picked(PickDecision.byPolicy(pod, 3), 0);
        record.answered(200, millis * 500_000);
        record.firstToken(millis * 1_000_000);
        policy.lifecycle().firstToken(record);
    }

    @Test
    void theDocShowsTheExampleFilesAsTheyAre() throws IOException {
        String doc = Files.readString(ProjectFiles.of("docs/extending.md"));
        Path example = Path.of("src/test/java/io/inferencegateway/scheduling/extending");
        for (String file : List.of("RecentFirstTokens.java", "RecentFirstTokenFacts.java",
                "RecentFirstTokenScorer.java")) {
            String source = Files.readString(example.resolve(file));
            String body = source.substring(source.indexOf("\n/**") + 1);
            assertThat(doc).as(file).contains(body);
        }
    }
}
