/**
 * vLLM-faithful simulated model servers: the referee of every end-to-end test, demo and routing
 * benchmark. Imports nothing else of the project.
 *
 * <ul>
 *   <li>{@link io.inferencegateway.simulator.EngineCore} — vLLM V1's scheduler and paged KV cache
 *       with prefix caching, as a deterministic state machine in virtual time;</li>
 *   <li>{@link io.inferencegateway.simulator.StepCostModel} — step time of Llama-3.1-8B on an H100;</li>
 *   <li>{@link io.inferencegateway.simulator.Tokenizer} — the tokenization contract (4 chars per token);</li>
 *   <li>{@link io.inferencegateway.simulator.SimulatedFleet} / {@link io.inferencegateway.simulator.SimulatedPod}
 *       — pods serving vLLM's OpenAI API and /metrics over Netty, with fault injection;</li>
 *   <li>{@link io.inferencegateway.simulator.MetricsDialect} — vLLM, SGLang, TGI, TensorRT-LLM or llama.cpp /metrics;</li>
 *   <li>{@link io.inferencegateway.simulator.Calibration} — the report against published measurements of the modelled GPU.</li>
 * </ul>
 */
package io.inferencegateway.simulator;
