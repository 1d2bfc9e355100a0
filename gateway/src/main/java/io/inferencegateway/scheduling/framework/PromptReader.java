package io.inferencegateway.scheduling.framework;

/**
 * A plugin that reads the request's prompt text (the prefix scorer, through {@link SchedulingCycle#promptBlocks}). The
 * policy asks its plugins how much of it they read, and the request parser decodes no more of a long prompt than that
 * (openai/InferenceRequestParser.java): a plugin that reads the prompt without saying so here sees none of it.
 */
@FunctionalInterface
public interface PromptReader {

    /** How many of the prompt's first characters the plugin reads at most. */
    int promptChars();
}
