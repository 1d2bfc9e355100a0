package io.inferencegateway.config;

import java.util.List;
import java.util.Map;

/**
 * The YAML document as the user writes it ({@code kind: InferenceGatewayConfig}). Field names follow
 * SageMaker HyperPod's InferenceGatewayConfig so that a user's file carries over. {@link ConfigLoader}
 * validates it and turns it into a {@link GatewayConfig}.
 */
public record InferenceGatewayConfig(String apiVersion, String kind, Map<String, Object> metadata, Spec spec) {

    public record Spec(List<Scheduler> schedulers, Bbr bbr, Observability observability, AuthSpec auth,
            List<Tenant> tenants, RateLimits rateLimits, Cluster cluster, Global global,
            List<ModelRewrite> modelRewrites) {
    }

    /**
     * A model name clients ask for, served by weighted target models or adapters, possibly of other pools (the
     * semantics of the Inference Extension's InferenceModelRewrite; docs/rollouts.md): rules tried in order, the first
     * whose matches hold (a rule without matches always holds) choosing among its targets by weight. {@code
     * responseModel} says what the response's {@code model} names ({@code target}, the default, or {@code requested});
     * {@code stickiness} what keeps a caller on one target ({@code session}, the default: the conversation, else the
     * tenant, else nothing; {@code tenant}; {@code request}). A {@code rollout} moves the weight from its baseline to
     * its candidate step by step.
     */
    public record ModelRewrite(String name, String responseModel, String stickiness, List<RewriteRule> rules,
            Rollout rollout) {
    }

    /** Targets chosen by weight when every match holds (every header of one match equal; any match of the list). */
    public record RewriteRule(List<RewriteMatch> matches, List<RewriteVersion> targets) {
    }

    /** Request headers that must all have the given values. */
    public record RewriteMatch(Map<String, String> headers) {
    }

    /** A served model or adapter name, and its weight among its rule's targets (percent; they sum to 100). */
    public record RewriteVersion(String model, Integer weight) {
    }

    /**
     * An automatic canary: the candidate's share of the rewrite's traffic goes through {@code steps}, each held for its
     * duration while {@code analysis} compares candidate and baseline, promoting step by step or rolling back at once
     * on a breach. {@code state}: {@code running} (the default), {@code paused} or {@code aborted}. Its progress is
     * kept in Redis ({@code redisUrl}, else spec.rateLimits.redis) across restarts and replicas.
     */
    public record Rollout(String baseline, String candidate, String state, List<RolloutStep> steps,
            RolloutAnalysis analysis, String redisUrl) {
    }

    /** The candidate's share in percent, held for {@code duration} (the last step, 100, needs none). */
    public record RolloutStep(Integer weight, String duration) {
    }

    /**
     * What a step must show before the next: at least {@code minSamples} requests on each side, and the candidate
     * within the margins of the baseline: error and refusal rates at most these many points higher (fractions), TTFT
     * and TPOT p90 at most these ratios of the baseline's. Evaluated every {@code interval}.
     */
    public record RolloutAnalysis(Integer minSamples, String interval, Double errorRate, Double refusalRate,
            Double ttftP90, Double tpotP90) {
    }

    /**
     * This gateway as a global tier (docs/global.md): the remote cluster gateways and external providers its pools'
     * requests go to, its own region, and the credentials and trust it uses to reach them.
     */
    public record Global(String region, String clusterTokenFile, Tls tls, List<ClusterTarget> clusters,
            List<ProviderTarget> providers, String summaryInterval) {
    }

    /** A remote cluster gateway: its base URL, its region, and what a million tokens served there cost. */
    public record ClusterTarget(String name, String url, String region, PriceSpec price) {
    }

    /**
     * An external OpenAI-compatible provider: its base URL (as an OpenAI SDK takes it, e.g. ending in /v1), the file
     * holding its API key, the local model names it serves under its own names, its region and its price.
     */
    public record ProviderTarget(String name, String baseUrl, String apiKeyFile, String region,
            Map<String, String> models, PriceSpec price) {
    }

    /** Currency per million input (prompt) and output (completion) tokens. */
    public record PriceSpec(Double input, Double output) {
    }

    /** Trust and identity for HTTPS targets: a CA bundle (else the JDK's), and a client certificate for mTLS. */
    public record Tls(String caFile, String certFile, String keyFile) {
    }

    /** This gateway as a cluster of a global tier: its name and region, and the token its capacity summary asks. */
    public record Cluster(String name, String region, String tokenFile) {
    }

    /** Who may call: hashed API keys from a file, JWT bearer tokens, which paths stay open. */
    public record AuthSpec(Boolean enabled, ApiKeysSpec apiKeys, Jwt jwt, Boolean protectMetrics, Boolean protectUi) {
    }

    public record ApiKeysSpec(String file) {
    }

    public record Jwt(String jwksUrl, String jwks, String issuer, String audience, String tenantClaim,
            String jwksCacheTtl, String clockSkew) {
    }

    /** A tenant: what it may use, its default priority class, its limits. */
    public record Tenant(String name, List<String> models, List<String> adapters, String priority, LimitsSpec limits,
            List<ModelLimitsSpec> modelLimits, Slo slo, List<String> regions, Boolean providers) {
    }

    /** Latency targets: time to first token and time per output token, as durations ({@code 500ms}, {@code 2s}). */
    public record Slo(String ttft, String tpot) {
    }

    /** A pool's latency targets: its default, and those of its models and adapters by name. */
    public record PoolSlo(String ttft, String tpot, Map<String, Slo> models) {
    }

    public record LimitsSpec(Long requestsPerMinute, Long tokensPerMinute) {
    }

    public record ModelLimitsSpec(String model, Long requestsPerMinute, Long tokensPerMinute) {
    }

    /** Where the limits are counted and what happens when that store is down. */
    public record RateLimits(Redis redis, Integer defaultMaxTokens, String window) {
    }

    public record Redis(String url, String failMode, String timeout) {
    }

    /** What the gateway tells about the requests it serves: meters, access log, traces, meters pushed. */
    public record Observability(Boolean requestMetrics, Boolean accessLog, Tracing tracing,
            MetricsExport metricsExport) {
    }

    /** Every meter of {@code GET /metrics}, pushed over OTLP/HTTP on an interval; off while {@code otlpEndpoint} is unset. */
    public record MetricsExport(String otlpEndpoint, Map<String, String> headers, String interval) {
    }

    /** OpenTelemetry traces, exported over OTLP/HTTP; off while {@code otlpEndpoint} is unset. */
    public record Tracing(String otlpEndpoint, String serviceName, Double samplingRatio) {
    }

    /** Body-based routing limits. */
    public record Bbr(Long maxRequestBodyBytes) {
    }

    /** One model pool: the model it serves, where its pods are, and how to pick among them. */
    public record Scheduler(
            String name,
            String modelName,
            List<String> loraAdapters,
            List<String> endpoints,
            LabelSelector modelSelector,
            String namespace,
            Integer targetPort,
            String engineType,
            String policy,
            String profile,
            Map<String, Integer> weights,
            String picker,
            List<Plugin> plugins,
            List<SchedulingProfile> schedulingProfiles,
            String routeTimeout,
            String metricsInterval,
            String metricsStalenessThreshold,
            Boolean streamUsage,
            Failover failover,
            OutlierDetection outlierDetection,
            FlowControlSpec flowControl,
            PoolSlo slo,
            Replicas replicas,
            List<String> targets,
            Shadow shadow,
            SessionAffinity sessionAffinity,
            Tokenizer tokenizer) {
    }

    /** The model's tokenizer files, for exact prompt tokens (docs/tokenization.md). */
    public record Tokenizer(String source, String path, Long cacheTokens) {
    }

    /** Which requests form one conversation, and how long the pool remembers its pod (docs/sessions.md). */
    public record SessionAffinity(Boolean enabled, List<String> keys, String header, String idleTimeout,
            Integer maxSessions) {
    }

    /** A share of the pool's requests copied to a candidate model or adapter, whose answer is discarded. */
    public record Shadow(String model, Double percent, Integer maxInFlight) {
    }

    /** The other active gateway replicas in front of the same pods, and how they agree on placement. */
    public record Replicas(Integer count, String placement, Double loadBound, Integer keyBlocks,
            Boolean spreadScrapes, String redisUrl) {
    }

    /**
     * Requests waiting in the gateway while every pod of the pool is saturated: the queue's size and wait, and the
     * priority of the pool's models ({@code critical}, {@code standard}, {@code sheddable} or an integer).
     */
    public record FlowControlSpec(Boolean enabled, Integer maxQueued, String queueTimeout, String retryAfter,
            String defaultPriority, Map<String, String> priorities, Boolean priorityHeader) {
    }

    /** Retries on another pod before the first byte reached the client. */
    public record Failover(Integer maxAttempts, Double retryBudgetPercent, Integer minRetries) {
    }

    /** Taking failing pods out of a pool for a while. */
    public record OutlierDetection(Integer consecutiveFailures, Double failurePercent, Integer minimumRequests,
            String interval, String baseEjectionTime, String maxEjectionTime, Integer maxEjectionPercent) {
    }

    /** A plugin instance: {@code type} as registered, an optional {@code name}, and its own parameters. */
    public record Plugin(String type, String name, Map<String, Object> parameters) {
    }

    /** The plugins a request runs through, by name, with a weight for each scorer. */
    public record SchedulingProfile(String name, List<ProfilePlugin> plugins) {
    }

    public record ProfilePlugin(String pluginRef, Double weight) {
    }

    public record LabelSelector(Map<String, String> matchLabels) {
    }
}
