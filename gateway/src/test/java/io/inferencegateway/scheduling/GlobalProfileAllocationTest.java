package io.inferencegateway.scheduling;

import static io.inferencegateway.scheduling.Scenarios.MODEL;
import static io.inferencegateway.scheduling.Scenarios.prompt;
import static org.assertj.core.api.Assertions.assertThat;

import java.lang.management.ManagementFactory;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;

import io.inferencegateway.config.GlobalWeights;
import io.inferencegateway.config.TargetConfig;
import io.inferencegateway.config.TargetConfig.Kind;
import io.inferencegateway.domain.Price;
import io.inferencegateway.domain.Endpoint;
import io.inferencegateway.domain.InFlightRequests.Counters;
import io.inferencegateway.domain.InferenceRequest;
import io.inferencegateway.domain.Priority;
import io.inferencegateway.domain.Residency;
import io.inferencegateway.metrics.ClusterCapacity;
import io.inferencegateway.metrics.EndpointMetrics;
import io.inferencegateway.scheduling.framework.EndpointState;
import io.inferencegateway.scheduling.framework.LoadEstimator;
import io.inferencegateway.scheduling.framework.SchedulerProfile;
import io.inferencegateway.scheduling.framework.SchedulingCycle;

/** The global profile's decision (filters, scorers, picker: what a request waits for) allocates nothing once warm. */
class GlobalProfileAllocationTest {

    @Test
    void theGlobalProfileDecidesWithoutAllocating() {
        com.sun.management.ThreadMXBean threads = (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
        SchedulerProfile profile = SchedulerProfiles.build(GlobalWeights.DEFAULT.endpointPicker(), () -> 0L);
        List<TargetConfig> targets = List.of(target("a", Kind.CLUSTER, "us-east"), target("b", Kind.CLUSTER, "eu-west"),
                target("c", Kind.CLUSTER, "ap-south"), target("p", Kind.PROVIDER, ""));
        EndpointMetrics[] scrapes = new EndpointMetrics[targets.size()];
        for (int i = 0; i < 3; i++) {
            scrapes[i] = Scenarios.scrape().waiting(i).kv(0.2 + 0.1 * i).cluster(Scenarios.summary(10, 0.01 * i,
                    100 + 50 * i, 20, 100 + 50 * i, 20, i == 2 ? 0.9 : 0.1, 5 + 60 * i)).build();
        }
        LoadEstimator estimator = new LoadEstimator(Long.MAX_VALUE);
        SchedulingCycle cycle = new SchedulingCycle();
        String text = prompt("conversation", 40);
        InferenceRequest[] requests = {
            request(text, Priority.STANDARD, Residency.ANY),
            request(text, Priority.CRITICAL, Residency.ANY),
            request(text, Priority.SHEDDABLE, new Residency(java.util.Set.of("eu-west", "ap-south"), true)),
        };
        Runnable decide = () -> {
            for (InferenceRequest r : requests) {
                cycle.begin(r, 0).pool("global", "us-east");
                for (int i = 0; i < targets.size(); i++) {
                    EndpointState s = cycle.addState();
                    estimator.estimate(s, targets.get(i).address(), scrapes[i], Counters.ZERO, 0);
                    s.target(targets.get(i), Double.NaN);
                }
                profile.run(cycle, cycle.states());
                cycle.end();
            }
        };
        for (int i = 0; i < 20_000; i++) {
            decide.run();
        }
        long before = threads.getThreadAllocatedBytes(Thread.currentThread().getId());
        for (int i = 0; i < 10_000; i++) {
            decide.run();
        }
        long allocated = threads.getThreadAllocatedBytes(Thread.currentThread().getId()) - before;

        assertThat(allocated).as("bytes allocated by 30,000 decisions (JIT stragglers aside, none)").isLessThan(4_096);
    }

    private static InferenceRequest request(String text, int priority, Residency residency) {
        return InferenceRequest.builder(MODEL).promptText(text)
                .promptTokensEstimate(InferenceRequest.estimateTokens(text)).stream(true).maxTokens(500)
                .priority(priority).residency(residency).build();
    }

    private static TargetConfig target(String name, Kind kind, String region) {
        return new TargetConfig(name, kind, new Endpoint(name + ".example", 443), true, "", region, new Price(1, 2),
                null, Map.of());
    }
}
