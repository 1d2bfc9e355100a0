package io.inferencegateway.scheduling.prefix;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.LongAdder;

import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.binder.MeterBinder;

/**
 * The meters of {@code replicas.placement: shared} (docs/scheduling.md), per pool: the routing decisions told to,
 * heard from and dropped for the other replicas, whether the sharing is up, and its traffic factor. All read a pool's
 * channel when Prometheus scrapes. A pool's meters are registered when it starts sharing through a Redis and removed
 * when it stops, so that they always describe the client serving it.
 */
public final class PrefixSharingMeters implements MeterBinder {

    private volatile MeterRegistry registry;

    @Override
    public void bindTo(MeterRegistry registry) {
        this.registry = registry;
    }

    /**
     * Registers the meters of {@code pool}'s channel: the counts {@code messages} holds by direction (published,
     * received, dropped) and what {@code feed} says; returns them for {@link #remove}.
     */
    List<Meter> sharing(String pool, Map<String, LongAdder> messages, PrefixSharing.Feed feed) {
        List<Meter> meters = new ArrayList<>();
        for (var d : messages.entrySet()) {
            meters.add(FunctionCounter.builder("inference_gateway_prefix_sharing_messages", d.getValue(),
                            LongAdder::sum)
                    .description("Routing decisions told to or heard from the other gateway replicas")
                    .tags("pool", pool, "direction", d.getKey()).register(registry));
        }
        meters.add(Gauge.builder("inference_gateway_prefix_sharing_up", feed, f -> f.live() ? 1 : 0)
                .description("1 while this replica shares its routing decisions through Redis")
                .tags("pool", pool).register(registry));
        meters.add(Gauge.builder("inference_gateway_prefix_sharing_traffic_factor", feed,
                        PrefixSharing.Feed::trafficFactor)
                .description("The pool's routing decisions per decision of this replica (about the active "
                        + "replicas); NaN while unknown")
                .tags("pool", pool).register(registry));
        return meters;
    }

    /** Removes a pool's meters: it no longer shares through the client that registered them. */
    void remove(List<Meter> meters) {
        meters.forEach(registry::remove);
    }
}
