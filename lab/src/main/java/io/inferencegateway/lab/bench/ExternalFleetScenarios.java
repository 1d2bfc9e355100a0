package io.inferencegateway.lab.bench;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import io.inferencegateway.lab.bench.global.GlobalLayout;

/**
 * Which scenarios can run on servers a user already runs ({@code bench --endpoints}), and why the others cannot: what
 * only the simulator can do (LoRA adapters named by the scenario, slower pods, faults, several regions, a second
 * version of the fleet) is not something the bench can ask of a real server.
 */
public final class ExternalFleetScenarios {

    /** Every scenario that cannot run on a user's servers, with the reason a user is told. */
    static final Map<String, String> REFUSED = refused();

    private ExternalFleetScenarios() {
    }

    private static Map<String, String> refused() {
        Map<String, String> m = new LinkedHashMap<>();
        m.put("lora", "it sends requests for 16 LoRA adapters named after the simulator's (<model>-lora-0 ...), which "
                + "your servers do not serve");
        m.put("mixed", "30% of its requests go to the simulator's LoRA adapters (<model>-lora-0 ...), which your "
                + "servers do not serve");
        m.put("heterogeneous", "it is about pods of different speeds, which the simulator sets; on your servers it "
                + "would be the uniform scenario again (your fleet is as fast as it is)");
        m.put("faults", "it kills, slows and breaks pods during the run, which only the simulator lets the bench do");
        m.put(GlobalLayout.SCENARIO, "it needs two simulated regions behind delayed links and a gateway per region");
        for (String name : ConversationScenario.NAMES) {
            m.put(name, "its report describes the simulated fleet's KV cache and time scale; run it on --fleet sim");
        }
        m.put(RolloutScenario.NAME, "it needs a second, deliberately broken version of the fleet, which only the "
                + "simulator can start");
        return Map.copyOf(m);
    }

    /** What {@code bench --endpoints} runs when no scenario is named: the routing ones that can run there. */
    static List<String> defaultNames() {
        return ScenarioCatalog.defaultNames().stream().filter(n -> !REFUSED.containsKey(n)).toList();
    }

    /**
     * @throws IllegalArgumentException naming every scenario of {@code named} that cannot run on a user's servers,
     *                                  each with its reason, and what can
     */
    static void check(List<String> named) {
        List<String> reasons = new ArrayList<>();
        for (String name : named) {
            String why = REFUSED.get(name);
            if (why != null) {
                reasons.add(name + " cannot run on --endpoints: " + why);
            }
        }
        if (!reasons.isEmpty()) {
            throw new IllegalArgumentException(String.join("; ", reasons) + ". Scenarios that can: "
                    + String.join(", ", runnable()));
        }
    }

    /** Every scenario that can run on a user's servers. */
    static List<String> runnable() {
        return ScenarioCatalog.names().stream().filter(n -> !REFUSED.containsKey(n)).toList();
    }
}
