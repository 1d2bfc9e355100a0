package io.inferencegateway.lab.benchmarks;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicInteger;

import com.openai.client.OpenAIClient;
import com.openai.client.okhttp.OpenAIOkHttpClient;
import com.openai.models.chat.completions.ChatCompletionCreateParams;

import io.inferencegateway.simulator.FleetOptions;
import io.inferencegateway.simulator.SimulatedFleet;
import io.inferencegateway.testing.GatewayHarness;

/**
 * How often consecutive turns of a conversation, sent through alternating gateway replicas, reach the same pod while
 * the pods' queues hover around saturation (docs/sessions.md). Prints the share; {@code -Dconv=} sets the
 * conversations (24), {@code -Dextra=} adds a scheduler line, {@code -Dreplicas=} replaces the {@code replicas} section
 * ({@code {count: 2}}, rendezvous):
 *
 * <pre>
 * mvn -B -q package -DskipTests
 * java -Dconv=24 [-Dextra='sessionAffinity: {enabled: false}'] \
 *      [-Dreplicas='{count: 2, placement: shared, redisUrl: "redis://127.0.0.1:6379"}'] \
 *      -cp lab/target/test-classes:lab/target/classes:$(cat lab/target/test-classpath.txt) \
 *      io.inferencegateway.lab.benchmarks.SessionAgreementMeasurement
 * </pre>
 */
public final class SessionAgreementMeasurement {

    static final String MODEL = "meta-llama/Llama-3.1-8B-Instruct";

    private SessionAgreementMeasurement() {
    }

    public static void main(String[] args) throws Exception {
        int conversations = Integer.getInteger("conv", 24);
        int turns = 10;
        try (SimulatedFleet fleet = SimulatedFleet.start(FleetOptions.builder().model(MODEL).pods(4).maxNumSeqs(2)
                .timeScale(5).build())) {
            List<GatewayHarness> gws = new ArrayList<>();
            java.util.Map<String, String> served = new java.util.concurrent.ConcurrentHashMap<>();
            java.util.Map<String, Integer> reasons = new java.util.concurrent.ConcurrentHashMap<>();
            List<OpenAIClient> clients = new ArrayList<>();
            for (int i = 0; i < 2; i++) {
                GatewayHarness g = GatewayHarness.start(GatewayHarness.fleetConfig(fleet, MODEL, "policy: gpu-aware",
                        "metricsInterval: 50ms", "replicas: " + System.getProperty("replicas", "{count: 2}"),
                        System.getProperty("extra", "streamUsage: false")));
                gws.add(g);
                g.server().gateway().requestListeners().add(new io.inferencegateway.domain.RequestListener() {
                    @Override
                    public void picked(io.inferencegateway.domain.RequestRecord rec) {
                        if (rec.clientRequestId() != null && rec.decision() != null) {
                            served.put(rec.clientRequestId(), rec.decision().endpoint().toString());
                            reasons.merge(rec.decision().reason().label(), 1, Integer::sum);
                        }
                    }

                    @Override
                    public void ended(io.inferencegateway.domain.RequestRecord rec) {
                    }
                });
                clients.add(OpenAIOkHttpClient.builder().baseUrl(g.baseUrl() + "/v1").apiKey("u").maxRetries(0)
                        .build());
            }
            AtomicInteger same = new AtomicInteger();
            AtomicInteger pairs = new AtomicInteger();
            ExecutorService pool = Executors.newFixedThreadPool(conversations);
            List<Future<?>> all = new ArrayList<>();
            for (int c = 0; c < conversations; c++) {
                int conv = c;
                all.add(pool.submit(() -> {
                    Random r = new Random(conv);
                    StringBuilder history = new StringBuilder();
                    String last = null;
                    for (int t = 0; t < turns; t++) {
                        history.append(" turn ").append(t).append(" of conversation ").append(conv)
                                .append(" asks a long question about the matter at hand ".repeat(4));
                        String id = "c" + conv + "-t" + t;
                        clients.get((t + conv) % 2).chat().completions().create(
                                ChatCompletionCreateParams.builder().model(MODEL).addUserMessage(history.toString())
                                        .promptCacheKey("conv-" + conv).maxCompletionTokens(48)
                                        .putAdditionalHeader("x-request-id", id).build());
                        String pod = served.get(id);
                        if (last != null) {
                            pairs.incrementAndGet();
                            if (last.equals(pod)) {
                                same.incrementAndGet();
                            }
                        }
                        last = pod;
                        try {
                            Thread.sleep(50 + r.nextInt(150));
                        } catch (InterruptedException e) {
                            return;
                        }
                    }
                }));
            }
            for (Future<?> f : all) {
                f.get();
            }
            pool.shutdown();
            System.out.printf("SESSION-AGREEMENT conversations=%d turns=%d consecutive-same-pod=%d/%d (%.1f %%)%n",
                    conversations, turns, same.get(), pairs.get(), 100.0 * same.get() / pairs.get());
            System.out.println("SESSION-AGREEMENT reasons " + reasons);
            for (GatewayHarness g : gws) {
                System.out.println("SESSION-AGREEMENT moves saturated="
                        + g.metric("inference_gateway_session_moves_total",
                                "reason=\"saturated\"")
                        + " picks-session=" + g.metric(
                                "inference_gateway_scheduler_picks_total", "reason=\"session_affinity\""));
                g.close();
            }
        }
    }
}
