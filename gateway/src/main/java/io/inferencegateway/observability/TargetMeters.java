package io.inferencegateway.observability;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Supplier;

import io.inferencegateway.config.GlobalConfig;
import io.inferencegateway.domain.RequestListener;
import io.inferencegateway.domain.RequestRecord;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.binder.MeterBinder;

/**
 * A global tier's meters per target (docs/global.md): requests each cluster and provider served, their tokens, what
 * they cost at the target's price, and the spills (requests served outside the home region, or by a provider). Labels
 * are the pool and the target's configured name: bounded by the config.
 */
public final class TargetMeters implements MeterBinder, RequestListener {

    private final Supplier<GlobalConfig> global;
    private final Map<TargetMeterKey, Meters> meters = new ConcurrentHashMap<>();

    private record TargetMeterKey(String pool, String target) {
    }

    private final class Meters {
        final Counter requests;
        final Counter inputTokens;
        final Counter outputTokens;
        final Counter spend;
        final Counter spills;

        Meters(TargetMeterKey k, RequestRecord r) {
            String kind = r.targetProvider() ? "provider" : "cluster";
            requests = Counter.builder("inference_gateway_target_requests")
                    .description("Requests a global tier's cluster or provider served")
                    .tags("pool", k.pool(), "target", k.target(), "kind", kind, "region", r.targetRegion())
                    .register(registry);
            inputTokens = tokens(k, "input");
            outputTokens = tokens(k, "output");
            spend = Counter.builder("inference_gateway_target_spend")
                    .description("What a target's served tokens cost at its configured price (currency units)")
                    .tags("pool", k.pool(), "target", k.target()).register(registry);
            spills = Counter.builder("inference_gateway_global_spills")
                    .description("Requests served outside the global tier's home region, or by a provider")
                    .tags("pool", k.pool(), "target", k.target()).register(registry);
        }

        private Counter tokens(TargetMeterKey k, String type) {
            return Counter.builder("inference_gateway_target_tokens")
                    .description("Tokens a global tier's target served, by type")
                    .tags("pool", k.pool(), "target", k.target(), "type", type).register(registry);
        }
    }

    private volatile MeterRegistry registry;

    /** @param global the global tier's config now (its home region tells the spills) */
    public TargetMeters(Supplier<GlobalConfig> global) {
        this.global = global;
    }

    @Override
    public void bindTo(MeterRegistry registry) {
        this.registry = registry;
    }

    @Override
    public void ended(RequestRecord r) {
        if (r.target() == null || r.pool() == null) {
            return;
        }
        Meters m = meters.computeIfAbsent(new TargetMeterKey(r.pool(), r.target()), k -> new Meters(k, r));
        m.requests.increment();
        if (r.inputTokens() > 0) {
            m.inputTokens.increment(r.inputTokens());
        }
        if (r.outputTokens() > 0) {
            m.outputTokens.increment(r.outputTokens());
        }
        double cost = r.cost();
        if (cost > 0) {
            m.spend.increment(cost);
        }
        if (r.targetProvider() || !r.targetRegion().equals(global.get().region())) {
            m.spills.increment();
        }
    }
}
