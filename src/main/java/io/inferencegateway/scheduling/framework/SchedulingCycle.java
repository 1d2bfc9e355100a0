package io.inferencegateway.scheduling.framework;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

import io.inferencegateway.domain.InferenceRequest;
import io.inferencegateway.scheduling.prefix.PromptBlocks;

/**
 * What one scheduling decision shares between its plugins: the request, the time, the candidates' states
 * and the prompt's block hashes (computed at most once, by whichever plugin asks first). One instance
 * per thread is reused from request to request, so a decision allocates next to nothing.
 */
public final class SchedulingCycle {

    private final ArrayList<EndpointState> states = new ArrayList<>();
    // one PromptBlocks per block geometry asked for (in practice one: the prefix scorer's), reused per thread
    private PromptBlocks[] blocks = new PromptBlocks[0];
    private boolean[] blocksReady = new boolean[0];
    private EndpointState[] statePool = new EndpointState[0];
    private double[] scores = new double[16];
    private double[] totals = new double[16];
    private int[] ints = new int[16];
    private InferenceRequest request;
    private long nowNanos;

    /** Starts a new decision; forgets everything of the previous one. */
    public SchedulingCycle begin(InferenceRequest request, long nowNanos) {
        this.request = request;
        this.nowNanos = nowNanos;
        Arrays.fill(blocksReady, false);
        this.states.clear();
        return this;
    }

    /** Ends the decision: lets go of the request (and its prompt text) until the thread's next one. */
    public void end() {
        request = null;
        Arrays.fill(blocksReady, false);
    }

    public InferenceRequest request() {
        return request;
    }

    public long nowNanos() {
        return nowNanos;
    }

    /**
     * The prompt's chain-hashed blocks of {@code blockChars} characters, at most {@code maxBlocks} of them,
     * seeded with the requested model and adapter: computed once per decision and geometry, by whichever
     * plugin asks first.
     */
    public PromptBlocks promptBlocks(int blockChars, int maxBlocks) {
        int i = 0;
        while (i < blocks.length && !(blocks[i].blockChars() == blockChars && blocks[i].maxBlocks() == maxBlocks)) {
            i++;
        }
        if (i == blocks.length) { // first request of this thread with this geometry
            blocks = Arrays.copyOf(blocks, i + 1);
            blocksReady = Arrays.copyOf(blocksReady, i + 1);
            blocks[i] = new PromptBlocks(blockChars, maxBlocks);
        }
        if (!blocksReady[i]) {
            blocks[i].compute(request.model(), request.adapter(), request.promptText());
            blocksReady[i] = true;
        }
        return blocks[i];
    }

    /** Adds a (reused) state object to this cycle's candidate list and returns it for filling in. */
    public EndpointState addState() {
        int i = states.size();
        if (i == statePool.length) {
            EndpointState[] grown = new EndpointState[Math.max(16, i * 2)];
            System.arraycopy(statePool, 0, grown, 0, i);
            for (int j = i; j < grown.length; j++) {
                grown[j] = new EndpointState();
            }
            statePool = grown;
        }
        EndpointState s = statePool[i];
        states.add(s);
        return s;
    }

    public List<EndpointState> states() {
        return states;
    }

    double[] scores(int n) {
        if (scores.length < n) {
            scores = new double[Math.max(n, scores.length * 2)];
        }
        return scores;
    }

    /** A per-thread int array of at least {@code n} slots for a plugin's own use during its call. */
    public int[] intScratch(int n) {
        if (ints.length < n) {
            ints = new int[Math.max(n, ints.length * 2)];
        }
        return ints;
    }

    double[] totals(int n) {
        if (totals.length < n) {
            totals = new double[Math.max(n, totals.length * 2)];
        }
        return totals;
    }
}
