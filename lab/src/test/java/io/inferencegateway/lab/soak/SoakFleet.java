package io.inferencegateway.lab.soak;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import io.inferencegateway.simulator.FleetOptions;
import io.inferencegateway.simulator.SimulatedFleet;
import io.inferencegateway.simulator.SimulatedPod;
import io.inferencegateway.testing.MockCluster;

/**
 * The soak's model servers as a cluster shows them: pod {@code i} is a simulated vLLM pod on its own loopback
 * address {@code 127.0.1.(i+1)}, all on one port, and discovery finds it through fabric8's mock API server by label,
 * as the gateway finds pods on Kubernetes ({@code podIP:targetPort}). Each pod is a one-pod {@link SimulatedFleet}
 * with one event loop. The first {@code listed} pods are in the API server from the start; the rest are spares that
 * join and leave through it.
 */
final class SoakFleet implements AutoCloseable {

    static final String NAMESPACE = "soak";
    static final Map<String, String> LABELS = Map.of("app", "sim-llm");
    /** Engine limits of every pod: a small batch, so the fleet saturates at a rate this machine can drive. */
    static final int MAX_NUM_SEQS = 4;
    static final int KV_BLOCKS = 4096;

    private final List<SimulatedFleet> pods = new ArrayList<>();
    private final boolean[] listed;
    private final MockCluster cluster;
    private final int port;

    SoakFleet(MockCluster cluster, int count, int listedAtStart, int port, String model, double timeScale,
              long seed) {
        this.cluster = cluster;
        this.port = port;
        this.listed = new boolean[count];
        try {
            for (int i = 0; i < count; i++) {
                pods.add(SimulatedFleet.start(FleetOptions.builder().pods(1).host(address(i)).basePort(port)
                        .model(model).maxNumSeqs(MAX_NUM_SEQS).kvBlocks(KV_BLOCKS).timeScale(timeScale).seed(seed + i).ioThreads(1)
                        .build()));
            }
        } catch (RuntimeException e) {
            close();
            throw e;
        }
        for (int i = 0; i < listedAtStart; i++) {
            list(i);
        }
    }

    static String address(int i) {
        return "127.0.1." + (i + 1);
    }

    static String podName(int i) {
        return "sim-" + i;
    }

    int size() {
        return pods.size();
    }

    int port() {
        return port;
    }

    SimulatedPod pod(int i) {
        return pods.get(i).pod(0);
    }

    synchronized boolean isListed(int i) {
        return listed[i];
    }

    /** Adds the pod to the API server, Running and Ready: the gateway's watch sees it join. */
    synchronized void list(int i) {
        if (!listed[i]) {
            cluster.createPod(NAMESPACE, podName(i), LABELS, address(i), true);
            listed[i] = true;
        }
    }

    /** Deletes the pod from the API server: it leaves the pool, though its process keeps serving what it has. */
    synchronized void unlist(int i) {
        if (listed[i]) {
            cluster.deletePod(NAMESPACE, podName(i));
            listed[i] = false;
        }
    }

    @Override
    public void close() {
        for (SimulatedFleet f : pods) {
            f.close();
        }
    }
}
