package io.inferencegateway.scheduling;

import java.util.ArrayDeque;
import java.util.Deque;
import java.util.random.RandomGenerator;

/** A random source that returns scripted values, and fails the test when asked for one it was not given. */
public final class ScriptedRandom implements RandomGenerator {

    private final Deque<Integer> ints = new ArrayDeque<>();
    private final Deque<Double> doubles = new ArrayDeque<>();
    private int draws;

    public ScriptedRandom scriptInts(int... values) {
        for (int v : values) {
            ints.add(v);
        }
        return this;
    }

    public ScriptedRandom scriptDoubles(double... values) {
        for (double v : values) {
            doubles.add(v);
        }
        return this;
    }

    public int draws() {
        return draws;
    }

    @Override
    public int nextInt(int bound) {
        draws++;
        Integer v = ints.poll();
        if (v == null) {
            throw new AssertionError("unexpected random draw nextInt(" + bound + ")");
        }
        if (v < 0 || v >= bound) {
            throw new AssertionError("scripted " + v + " outside [0," + bound + ")");
        }
        return v;
    }

    @Override
    public double nextDouble() {
        draws++;
        Double v = doubles.poll();
        if (v == null) {
            throw new AssertionError("unexpected random draw nextDouble()");
        }
        return v;
    }

    @Override
    public long nextLong() {
        throw new AssertionError("unexpected random draw nextLong()");
    }
}
