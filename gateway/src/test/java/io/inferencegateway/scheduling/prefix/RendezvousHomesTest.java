package io.inferencegateway.scheduling.prefix;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import io.inferencegateway.domain.Endpoint;

/** Rendezvous placement of prefixes: what moves when pods come and go, and when a hot prefix spills. */
class RendezvousHomesTest {

    private static final RendezvousHomes PLACEMENT = new RendezvousHomes(1.25, 4);
    private static final int KEYS = 20_000;

    static List<Endpoint> pods(int n) {
        List<Endpoint> pods = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            pods.add(new Endpoint("10.0.0." + (i + 1), 8000));
        }
        return pods;
    }

    /** Each key's home pod with every pod idle. */
    static Map<Long, Endpoint> homes(List<Endpoint> pods) {
        int[] idle = new int[pods.size()];
        Map<Long, Endpoint> homes = new HashMap<>();
        for (long k = 0; k < KEYS; k++) {
            long key = RendezvousHomes.mix(k + 1);
            homes.put(key, pods.get(PLACEMENT.home(key, pods, idle, 0)));
        }
        return homes;
    }

    static Stream<Arguments> membershipChanges() {
        List<Endpoint> eight = pods(8);
        List<Endpoint> nine = pods(9);
        List<Endpoint> withoutThird = new ArrayList<>(eight);
        withoutThird.remove(2);
        List<Endpoint> withoutTwo = new ArrayList<>(eight);
        withoutTwo.remove(7);
        withoutTwo.remove(0);
        List<Endpoint> replaced = new ArrayList<>(withoutThird);
        replaced.add(new Endpoint("10.0.1.99", 8000));
        return Stream.of(
                Arguments.of("a ninth pod joins", eight, nine, 1.0 / 9),
                Arguments.of("one of eight leaves", eight, withoutThird, 1.0 / 8),
                Arguments.of("two of eight leave", eight, withoutTwo, 2.0 / 8),
                Arguments.of("one pod is replaced by a new one", eight, replaced, 2.0 / 8 - 1.0 / 64));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("membershipChanges")
    void podsJoiningOrLeavingMoveOnlyThePrefixesTheyMust(String scenario, List<Endpoint> before,
            List<Endpoint> after, double expectedShare) {
        Map<Long, Endpoint> was = homes(before);
        Map<Long, Endpoint> now = homes(after);
        int moved = 0;
        for (Map.Entry<Long, Endpoint> e : was.entrySet()) {
            Endpoint old = e.getValue();
            Endpoint current = now.get(e.getKey());
            if (old.equals(current)) {
                continue;
            }
            moved++;
            // a key moves only because its pod left, or to a pod that joined
            assertThat(!after.contains(old) || !before.contains(current))
                    .as("%s: key moved from %s (still there) to %s (not new)", scenario, old, current).isTrue();
        }
        assertThat((double) moved / KEYS).as(scenario + ": share of prefixes moved")
                .isBetween(expectedShare * 0.8, expectedShare * 1.2);
    }

    @Test
    void everyPodGetsAboutItsShareOfPrefixes() {
        List<Endpoint> pods = pods(8);
        Map<Endpoint, Integer> perPod = new HashMap<>();
        homes(pods).values().forEach(p -> perPod.merge(p, 1, Integer::sum));
        assertThat(perPod).hasSize(8);
        assertThat(perPod.values()).allSatisfy(c -> assertThat(c).isBetween(KEYS / 8 * 85 / 100, KEYS / 8 * 115 / 100));
    }

    @Test
    void theHomeDoesNotDependOnTheOrderPodsAreListedIn() {
        List<Endpoint> pods = pods(6);
        List<Endpoint> reversed = new ArrayList<>(pods);
        java.util.Collections.reverse(reversed);
        assertThat(homes(reversed)).isEqualTo(homes(pods));
    }

    static Stream<Arguments> loads() {
        return Stream.of(
                // name, loads of the 4 pods with the key's home first (by weight), expected home (index into ranking)
                Arguments.of("idle fleet: the top-weight pod", new int[] {0, 0, 0, 0}, 0),
                Arguments.of("home a little busier than average: stays", new int[] {5, 4, 4, 3}, 0),
                Arguments.of("home over 1.25 x average: spills to the second pod", new int[] {12, 4, 4, 4}, 1),
                Arguments.of("home and second both over: spills to the third", new int[] {12, 12, 2, 2}, 2),
                Arguments.of("everyone busy alike: home keeps it", new int[] {40, 40, 40, 40}, 0),
                Arguments.of("one request in flight on an idle pool's home: stays", new int[] {1, 0, 0, 0}, 0),
                Arguments.of("two requests on the home of an otherwise idle pool: spills", new int[] {2, 0, 0, 0}, 1));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("loads")
    void boundedLoadSpillsAHotPrefixToTheNextPodByWeight(String scenario, int[] loadsByRank, int expectedRank) {
        List<Endpoint> pods = pods(4);
        long key = 0x1234_5678_9ABCL;
        List<Endpoint> ranking = ranking(key, pods);
        int[] loads = new int[pods.size()];
        for (int r = 0; r < ranking.size(); r++) {
            loads[pods.indexOf(ranking.get(r))] = loadsByRank[r];
        }
        int home = PLACEMENT.home(key, pods, loads, 0);
        assertThat(pods.get(home)).as(scenario).isEqualTo(ranking.get(expectedRank));
        // a second replica with its own instance and the same readings agrees
        assertThat(new RendezvousHomes(1.25, 4).home(key, pods, loads, 0)).isEqualTo(home);
    }

    @Test
    void theKeyIsTheChainHashAtTheLastKeyBlockOrTheLastBlockOfAShortPrompt() {
        long[] hashes = {11, 22, 33, 44, 55, 66};
        assertThat(PLACEMENT.key(hashes, 6)).isEqualTo(44);
        assertThat(PLACEMENT.key(hashes, 2)).isEqualTo(22);
        assertThat(PLACEMENT.key(hashes, 0)).isZero();
    }

    /** Pods by falling weight for the key. */
    static List<Endpoint> ranking(long key, List<Endpoint> pods) {
        List<Endpoint> sorted = new ArrayList<>(pods);
        sorted.sort((a, b) -> Long.compareUnsigned(RendezvousHomes.weight(key, b), RendezvousHomes.weight(key, a)));
        return sorted;
    }
}
