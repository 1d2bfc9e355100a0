package io.inferencegateway.lab.bench.load;

/**
 * Told, on the generator's event loop, what each ended response said about who served it. Keep it cheap: it runs
 * between the streams' events.
 */
@FunctionalInterface
public interface ResponseObserver {

    /**
     * @param index        the request's index in the plan
     * @param completionId the streamed completion's {@code id}; null when no chunk came
     * @param model        the {@code model} the chunks named; null when no chunk came
     */
    void onResponse(int index, String completionId, String model);
}
