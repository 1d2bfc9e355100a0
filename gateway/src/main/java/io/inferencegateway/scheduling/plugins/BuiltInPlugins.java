package io.inferencegateway.scheduling.plugins;

import java.util.List;

import io.inferencegateway.scheduling.framework.PluginRegistry;

/**
 * Every plugin type a config may name. A new plugin is one file in this package that declares its
 * {@code PLUGIN} constant, plus one line here (and its card in docs/scheduling.md); see docs/adding-a-scorer.md.
 */
public final class BuiltInPlugins {

    public static final PluginRegistry REGISTRY = new PluginRegistry(List.of(
            SaturationFilter.PLUGIN,
            LoraAffinityFilter.PLUGIN,
            LatencyTargetFilter.PLUGIN,
            ResidencyFilter.PLUGIN,
            TargetHealthFilter.PLUGIN,
            OverflowFilter.PLUGIN,
            LoadScorer.QUEUE,
            LoadScorer.KV_CACHE,
            PrefixCacheScorer.PLUGIN,
            LoraAffinityScorer.PLUGIN,
            LoadScorer.RUNNING_REQUESTS,
            LatencyScorer.PLUGIN,
            LoadScorer.QUEUE_DEPTH,
            RegionProximityScorer.PLUGIN,
            ErrorRateScorer.PLUGIN,
            CostScorer.PLUGIN,
            PriorityScorer.PLUGIN,
            SessionAffinityScorer.PLUGIN,
            MaxScorePicker.PLUGIN,
            PredictedTimePicker.PLUGIN,
            WeightedRandomPicker.PLUGIN,
            SingleProfileHandler.PLUGIN));

    private BuiltInPlugins() {
    }
}
