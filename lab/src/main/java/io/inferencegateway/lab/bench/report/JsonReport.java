package io.inferencegateway.lab.bench.report;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

import io.inferencegateway.lab.bench.fleet.FaultRecord;
import io.inferencegateway.lab.bench.fleet.FleetSpec;
import io.inferencegateway.lab.bench.fleet.PodSpec;
import io.inferencegateway.lab.bench.fleet.PodStats;
import io.inferencegateway.lab.bench.load.Outcome;
import io.inferencegateway.lab.bench.load.RequestResult;
import io.inferencegateway.lab.bench.load.RunRecording;

/**
 * One JSON file per run: the settings that reproduce it, the summary (with {@code slo} when requests carried
 * latency targets), the generator's health, the latency predictor's accuracy ({@code predictor}, when the gateway's
 * access log carried predictions) and one line per request. Times are milliseconds of simulated time;
 * missing values are null.
 */
public final class JsonReport {

    private static final ObjectMapper JSON = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);

    private JsonReport() {
    }

    /**
     * A scenario's report as {@code <name>.md} and {@code <name>.json} side by side in {@code dir}: the page and every
     * figure behind it.
     */
    public static void writeWithMarkdown(Path dir, String name, String markdown, Object figures) throws IOException {
        Files.createDirectories(dir);
        Files.writeString(dir.resolve(name + ".md"), markdown, StandardCharsets.UTF_8);
        JSON.writeValue(dir.resolve(name + ".json").toFile(), figures);
    }

    public static void write(RunReport run, Path file) throws IOException {
        Files.createDirectories(file.toAbsolutePath().getParent());
        JSON.writeValue(file.toFile(), toJson(run));
    }

    public static ObjectNode toJson(RunReport run) {
        ObjectNode root = JSON.createObjectNode();
        root.put("scenario", run.scenario());
        root.put("description", run.scenarioSummary());
        root.put("policy", run.policy());
        root.put("gateway", run.gateway());
        root.put("seed", run.seed());
        root.put("workload", run.workload());
        root.put("arrivals", run.arrivals());
        number(root, "rate", run.rate());
        number(root, "durationSeconds", run.durationSeconds());
        RunRecording recording = run.recording();
        number(root, "timeScale", recording.timeScale());
        number(root, "wallSeconds", recording.wallNanos() / 1e9);
        root.set("fleet", fleet(run.fleet()));

        RunSummary s = run.summary();
        ObjectNode summary = root.putObject("summary");
        summary.put("requests", s.requests());
        summary.put("ok", s.ok());
        summary.put("errors", s.errors());
        summary.put("refused", s.refused());
        ObjectNode outcomes = summary.putObject("outcomes");
        for (Map.Entry<Outcome, Integer> e : s.outcomes().entrySet()) {
            outcomes.put(e.getKey().name(), e.getValue());
        }
        summary.set("ttftMs", latency(s.ttft()));
        summary.set("itlMs", latency(s.itl()));
        summary.set("e2eMs", latency(s.e2e()));
        number(summary, "outputTokensPerSecond", s.outputTokensPerSecond());
        number(summary, "spanSeconds", s.spanSeconds());
        if (!s.classes().isEmpty()) {
            ArrayNode classes = summary.putArray("priorityClasses");
            for (ClassSummary c : s.classes()) {
                ObjectNode node = classes.addObject();
                node.put("priority", c.priority());
                node.put("requests", c.requests());
                node.put("ok", c.ok());
                node.put("errors", c.errors());
                node.put("refused", c.refused());
                ObjectNode reasons = node.putObject("refusedByReason");
                c.refusedByReason().forEach(reasons::put);
                node.put("refusedWithRetryAfter", c.refusedWithRetryAfter());
                node.set("ttftMs", latency(c.ttft()));
            }
        }

        SloAttainment slo = run.slo();
        if (!slo.isEmpty()) {
            ObjectNode node = summary.putObject("slo");
            number(node, "arrivalSeconds", slo.arrivalSeconds());
            node.put("requests", slo.requests());
            node.put("met", slo.met());
            number(node, "attainment", slo.attainment());
            number(node, "goodput", slo.goodput());
            ArrayNode classes = node.putArray("classes");
            for (SloSummary c : slo.classes()) {
                ObjectNode line = classes.addObject();
                line.put("name", c.slo().name());
                line.put("priority", c.priority());
                millis(line, "ttftTargetMs", c.slo().hasTtftTarget() ? c.slo().ttft().toNanos() : -1);
                millis(line, "tpotTargetMs", c.slo().hasTpotTarget() ? c.slo().tpot().toNanos() : -1);
                line.put("requests", c.requests());
                line.put("met", c.met());
                number(line, "attainment", c.attainment());
                line.put("ttftMissed", c.ttftMissed());
                line.put("tpotMissed", c.tpotMissed());
                line.put("notServed", c.notServed());
                number(line, "goodput", c.goodput());
                line.set("ttftMs", latency(c.ttft()));
                line.set("tpotMs", latency(c.tpot()));
            }
        }

        ObjectNode generator = root.putObject("generator");
        generator.set("sendLagMs", latency(s.sendLag()));
        generator.put("maxInFlight", recording.maxInFlight());
        generator.put("connectionsOpened", recording.connectionsOpened());

        ArrayNode pods = root.putArray("pods");
        for (PodStats p : run.pods()) {
            ObjectNode pod = pods.addObject();
            pod.put("name", p.name());
            number(pod, "speedFactor", p.speedFactor());
            pod.put("served", p.served());
            number(pod, "meanWaiting", p.meanWaiting());
            pod.put("peakWaiting", p.peakWaiting());
            number(pod, "meanRunning", p.meanRunning());
            number(pod, "prefixHitRate", p.prefixHitRate());
            pod.put("preemptions", p.preemptions());
        }

        if (!run.faults().isEmpty()) {
            ArrayNode faults = root.putArray("faults");
            for (FaultRecord f : run.faults()) {
                ObjectNode node = faults.addObject();
                node.put("pod", f.fault().pod());
                node.put("kind", f.fault().kind().name());
                node.put("description", f.fault().describe());
                number(node, "plannedAtSeconds", f.fault().atSeconds());
                number(node, "appliedAtSeconds", f.appliedAtSeconds());
                node.put("heldRequests", f.heldRequests());
                ArrayNode cut = node.putArray("cutRequestIds");
                f.cutRequestIds().forEach(cut::add);
            }
            FaultOutcome o = FaultOutcome.of(recording.results(), run.faults());
            ObjectNode failures = root.putObject("failures");
            failures.put("failed", o.failed());
            failures.put("cutByKill", o.cutByKill());
            ArrayNode unexplained = failures.putArray("unexplainedIndexes");
            o.unexplained().forEach(r -> unexplained.add(r.index()));
            ObjectNode causes = failures.putObject("causes");
            o.causes().forEach(causes::put);
        }

        if (!run.predictor().isEmpty()) {
            root.set("predictor", predictor(run.predictor()));
        }

        ArrayNode requests = root.putArray("requests");
        for (RequestResult r : recording.results()) {
            ObjectNode line = requests.addObject();
            line.put("index", r.index());
            line.put("model", r.model());
            line.put("kind", r.kind());
            line.put("key", r.key());
            line.put("promptTokens", r.promptTokens());
            line.put("maxTokens", r.maxTokens());
            number(line, "intendedMs", r.intendedNanos() / 1e6);
            millis(line, "sendLagMs", r.sendLagNanos());
            line.put("outcome", r.outcome().name());
            line.put("status", r.status());
            if (!r.priority().isEmpty()) {
                line.put("priority", r.priority());
            }
            if (!r.droppedReason().isEmpty()) {
                line.put("droppedReason", r.droppedReason());
            }
            if (!r.retryAfter().isEmpty()) {
                line.put("retryAfter", r.retryAfter());
            }
            if (!r.error().isEmpty()) {
                line.put("error", r.error());
            }
            if (!r.slo().isNone()) {
                line.put("sloClass", r.slo().name());
                line.put("slo", SloVerdict.of(r).name());
            }
            millis(line, "ttftMs", r.ttftNanos());
            millis(line, "e2eMs", r.e2eNanos());
            millis(line, "tpotMs", r.tpotNanos());
            line.put("outputTokens", r.outputTokens());
            line.put("contentEvents", r.contentEvents());
            Distribution itl = Distribution.of(r.itlNanos());
            number(line, "itlMeanMs", itl.mean() / 1e6);
            millis(line, "itlMaxMs", itl.isEmpty() ? -1 : itl.max());
        }
        return root;
    }

    /** Errors are ratios (0.12 = 12 %); seconds are simulated, from the run's first request. */
    private static ObjectNode predictor(PredictionAccuracy a) {
        ObjectNode node = JSON.createObjectNode();
        node.put("accessLogLines", a.accessLogLines());
        node.put("predicted", a.predicted());
        node.put("skippedQueued", a.skippedQueued());
        node.put("skippedRetried", a.skippedRetried());
        node.put("warmUpRequests", a.warmUp());
        node.set("ttft", error(a.ttft()));
        ArrayNode pods = node.putArray("pods");
        for (PodPrediction p : a.pods()) {
            ObjectNode pod = pods.addObject();
            pod.put("pod", p.pod());
            pod.set("ttft", error(p.ttft()));
            ArrayNode windows = pod.putArray("windows");
            for (PredictionWindow w : p.windows()) {
                ObjectNode window = windows.addObject();
                window.put("second", w.second());
                window.put("count", w.count());
                number(window, "mape", w.mape());
            }
        }
        if (!a.recoveries().isEmpty()) {
            ArrayNode recoveries = node.putArray("recoveries");
            for (PredictorRecovery r : a.recoveries()) {
                ObjectNode recovery = recoveries.addObject();
                recovery.put("pod", r.pod());
                recovery.put("fault", r.fault());
                number(recovery, "faultSeconds", r.faultSeconds());
                recovery.put("recovered", r.recovered());
                number(recovery, "afterSeconds", r.afterSeconds());
                recovery.put("responses", r.responses());
            }
        }
        return node;
    }

    private static ObjectNode error(PredictionError e) {
        ObjectNode node = JSON.createObjectNode();
        node.put("count", e.count());
        number(node, "mape", e.mape());
        number(node, "bias", e.bias());
        return node;
    }

    private static ObjectNode fleet(FleetSpec fleet) {
        ObjectNode node = JSON.createObjectNode();
        node.put("modelName", fleet.modelName());
        ArrayNode pods = node.putArray("pods");
        for (PodSpec pod : fleet.pods()) {
            pods.addObject().put("name", pod.name()).put("speedFactor", pod.speedFactor());
        }
        ArrayNode adapters = node.putArray("loraAdapters");
        fleet.loraAdapters().forEach(adapters::add);
        node.put("maxLoras", fleet.maxLoras());
        node.put("kvBlocksPerPod", fleet.kvBlocksPerPod());
        node.put("maxNumSeqs", fleet.maxNumSeqs());
        node.put("maxNumBatchedTokens", fleet.maxNumBatchedTokens());
        node.put("timeScale", fleet.timeScale());
        if (fleet.isExternal()) {
            // a user's own servers: the engine settings above are the scenario's, not theirs
            ObjectNode external = node.putObject("external");
            external.put("engine", fleet.external().engine().label());
            ArrayNode endpoints = external.putArray("endpoints");
            fleet.external().names().forEach(endpoints::add);
        }
        return node;
    }

    private static ObjectNode latency(LatencySummary l) {
        ObjectNode node = JSON.createObjectNode();
        node.put("count", l.count());
        number(node, "mean", l.meanMs());
        number(node, "p50", l.p50Ms());
        number(node, "p90", l.p90Ms());
        number(node, "p99", l.p99Ms());
        number(node, "max", l.maxMs());
        return node;
    }

    private static void number(ObjectNode node, String field, double value) {
        if (Double.isFinite(value)) {
            node.put(field, Math.round(value * 1000) / 1000.0);
        } else {
            node.putNull(field);
        }
    }

    private static void millis(ObjectNode node, String field, long nanos) {
        if (nanos < 0) {
            node.putNull(field);
        } else {
            number(node, field, nanos / 1e6);
        }
    }
}
