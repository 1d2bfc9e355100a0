package io.inferencegateway.lab.bench.global;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeFalse;

import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.List;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.FieldSource;

import io.inferencegateway.config.ConfigLoader;
import io.inferencegateway.config.GatewayConfig;
import io.inferencegateway.config.InvalidConfigException;
import io.inferencegateway.config.PoolConfig;
import io.inferencegateway.config.TargetConfig;

/** The gateway's own validator accepts the global tier configs the bench renders, under every policy label. */
class TierConfigContractTest {

    static final List<String> LABELS = GlobalPolicy.LABELS;

    @ParameterizedTest(name = "{0}")
    @FieldSource("LABELS")
    void theGatewayAcceptsTheRenderedTierConfig(String label) throws Exception {
        GlobalLayout layout = GlobalLayout.standard();
        List<TierConfigWriter.Cluster> clusters = List.of(
                new TierConfigWriter.Cluster(layout.regions().get(0), new InetSocketAddress("127.0.0.1", 9101)),
                new TierConfigWriter.Cluster(layout.regions().get(1), new InetSocketAddress("127.0.0.1", 9102)));

        String yaml = TierConfigWriter.render("m", clusters, GlobalPolicy.of(label, layout.home().cluster()),
                Duration.ofSeconds(30), true);
        GatewayConfig config;
        try {
            config = ConfigLoader.parse(yaml);
        } catch (InvalidConfigException e) {
            // global-no-cost sets the global tier's cost weight, which a gateway without the tier's plugins lacks
            assumeFalse(e.getMessage().contains("weights.cost is not a known weight"),
                    "this gateway has no global tier weights yet: " + e.getMessage());
            throw e;
        }

        assertThat(config.global().region()).isEqualTo("us-east");
        assertThat(config.global().targets()).extracting(TargetConfig::name).containsExactly("near", "far");
        assertThat(config.global().target("far").price()).isNotEqualTo(config.global().target("near").price());
        PoolConfig pool = config.pools().get(0);
        assertThat(pool.modelName()).isEqualTo("m");
        assertThat(pool.endpoints()).hasSize(label.equals(GlobalPolicy.NEAREST_ONLY) ? 1 : 2);
        assertThat(pool.endpoints().get(0).port()).isEqualTo(9101);
        assertThat(pool.routeTimeout()).isEqualTo(Duration.ofSeconds(30));
    }
}
