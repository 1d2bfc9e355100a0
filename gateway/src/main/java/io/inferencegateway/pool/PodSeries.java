package io.inferencegateway.pool;

import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Consumer;
import java.util.function.Function;

import io.inferencegateway.domain.Endpoint;

/**
 * One pool's per-pod meters of one kind, following the pool's membership: a pod's are registered when it joins the
 * pool and removed when it leaves (a reload or discovery), so that their number is bounded by the pods the pool has.
 * The pool's meters ({@link PoolMeters}) and its scrapes' (metrics/ScrapeMeters) each keep one per pool. Finding a
 * pod's is one map read, without allocating.
 *
 * @param <T> what the owner keeps of one pod's meters (its counters, and what to remove)
 */
public final class PodSeries<T> {

    private final Function<Endpoint, T> register;
    private final Consumer<T> remove;
    private final Map<Endpoint, T> pods = new ConcurrentHashMap<>();
    private List<Endpoint> seen; // guarded by this

    /**
     * @param register registers a pod's meters when it joins
     * @param remove   removes them from the registry when it leaves
     */
    public PodSeries(Function<Endpoint, T> register, Consumer<T> remove) {
        this.register = register;
        this.remove = remove;
    }

    /** The pod's meters; null when it is not (or no longer) in the pool. */
    public T get(Endpoint pod) {
        return pods.get(pod);
    }

    /**
     * After a reload: the series of each pool of {@code now} follow its pods, and those of pools that are gone follow
     * none. {@code byPool} holds each pool's meters by name, {@code pods} reads their per-pod series.
     */
    public static <S> void poolsChanged(ModelPools now, Map<String, S> byPool, Function<S, PodSeries<?>> pods) {
        Set<String> names = new HashSet<>();
        for (ModelPool p : now.pools()) {
            names.add(p.name());
            follow(p, byPool, pods);
        }
        byPool.forEach((name, series) -> {
            if (!names.contains(name)) {
                pods.apply(series).follow(List.of());
            }
        });
    }

    /** The per-pod series of {@code pool}, if it has any in {@code byPool}, follow its pods as they are now. */
    public static <S> void follow(ModelPool pool, Map<String, S> byPool, Function<S, PodSeries<?>> pods) {
        S series = byPool.get(pool.name());
        if (series != null) {
            pods.apply(series).follow(pool.endpoints());
        }
    }

    /** Makes the series exactly those of {@code endpoints}. */
    public synchronized void follow(List<Endpoint> endpoints) {
        if (seen == endpoints) { // pools replace their list whole, so identity tells
            return;
        }
        seen = endpoints;
        Set<Endpoint> current = new HashSet<>(endpoints);
        for (Map.Entry<Endpoint, T> e : List.copyOf(pods.entrySet())) {
            if (!current.contains(e.getKey())) {
                pods.remove(e.getKey());
                remove.accept(e.getValue());
            }
        }
        for (Endpoint e : endpoints) {
            if (!pods.containsKey(e)) {
                pods.put(e, register.apply(e));
            }
        }
    }
}
