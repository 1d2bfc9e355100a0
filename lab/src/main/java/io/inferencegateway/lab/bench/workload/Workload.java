package io.inferencegateway.lab.bench.workload;

import java.util.SplittableRandom;

/**
 * What a scenario's clients ask for: one request body per arrival. Implementations hold their fixed
 * material (system prompts, adapter list) and draw everything else from the content stream, so that
 * the same seed gives the same sequence of requests.
 */
public interface Workload {

    /** The body of the {@code index}-th request. */
    RequestSpec next(int index, SplittableRandom content);

    WorkloadShape shape();

    /** One line for reports: the parameters that define this workload. */
    String describe();
}
