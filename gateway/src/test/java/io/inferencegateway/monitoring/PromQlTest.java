package io.inferencegateway.monitoring;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** The metric-name extraction the dashboard/rules consistency test relies on. */
class PromQlTest {

    @Test
    void histogramQuantileOverARateWithGrafanaVariables() {
        assertThat(PromQl.metricNames("histogram_quantile(0.99, sum by (le) "
                + "(rate(inference_objective_request_ttft_seconds_bucket{pool=~\"$pool\"}[$__rate_interval])))"))
                .containsExactly("inference_objective_request_ttft_seconds_bucket");
    }

    @Test
    void aRatioWithGroupingAfterTheAggregationAndAThreshold() {
        assertThat(PromQl.metricNames("(sum(rate(a_total{error_code!~\"x|y\"}[5m])) by (pool) / on (pool) "
                + "group_left sum by (pool) (rate(b_total[5m] offset 1m))) > 0.05 and bool c == 1e3"))
                .containsExactly("a_total", "b_total", "c");
    }

    @Test
    void labelNamesAndValuesAreNotMetricNames() {
        assertThat(PromQl.metricNames("max by (name, model_server_pod) (kv{name=~\"${pool}\", le=\"+Inf\"})"))
                .containsExactly("kv");
    }

    @Test
    void metricNamesWithColonsAndTheGrafanaVariableForm() {
        assertThat(PromQl.metricNames("vllm:num_requests_waiting")).containsExactly("vllm:num_requests_waiting");
        assertThat(PromQl.variableQueryMetricNames("label_values(inference_gateway_pool_endpoints, pool)"))
                .containsExactly("inference_gateway_pool_endpoints");
    }

    @Test
    void theLabelsOfMatchersAndGroupings() {
        String expr = "sum by (pool, pod) (rate(s_total{pool=~\"$pool\", result=~\"failed|timed_out\"}[5m])) "
                + "/ on (pool) group_left sum by (pool) (t{name!=\"a{b}\"})";
        assertThat(PromQl.matcherLabels(expr)).containsOnlyKeys("s_total", "t");
        assertThat(PromQl.matcherLabels(expr).get("s_total")).containsExactly("pool", "result");
        assertThat(PromQl.matcherLabels(expr).get("t")).containsExactly("name");
        assertThat(PromQl.groupingLabels(expr)).containsExactly("pool", "pod");
    }
}
