package io.inferencegateway.discovery;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.HashMap;
import java.util.Map;

import org.junit.jupiter.api.Test;

/** How watch events and resync lists merge: the newer news wins, whichever path it came by. */
class PodSetTest {

    private final PodSet pods = new PodSet();

    private static Map<String, String> list(String... nameIpPairs) {
        Map<String, String> m = new HashMap<>();
        for (int i = 0; i < nameIpPairs.length; i += 2) {
            m.put(nameIpPairs[i], nameIpPairs[i + 1]);
        }
        return m;
    }

    @Test
    void watchEventsChangeTheServingIpsInPodNameOrder() {
        assertThat(pods.put("b", "10.0.0.2")).isTrue();
        assertThat(pods.put("a", "10.0.0.1")).isTrue();
        assertThat(pods.put("c", null)).as("a pod that is not ready yet").isFalse();
        assertThat(pods.servingIps()).containsExactly("10.0.0.1", "10.0.0.2");

        assertThat(pods.put("a", "10.0.0.1")).as("same state again").isFalse();
        assertThat(pods.put("a", null)).as("turned not ready").isTrue();
        assertThat(pods.delete("b")).isTrue();
        assertThat(pods.delete("c")).as("was not serving").isFalse();
        assertThat(pods.servingIps()).isEmpty();
    }

    @Test
    void resyncAddsWhatTheWatchMissedAndDropsWhatIsGone() {
        pods.put("a", "10.0.0.1");
        pods.put("b", "10.0.0.2");

        PodSet.ResyncResult result = pods.resync(pods.beginResync(), list("a", "10.0.0.1", "c", "10.0.0.3"));

        assertThat(result).isEqualTo(new PodSet.ResyncResult(true, 2));
        assertThat(pods.servingIps()).containsExactly("10.0.0.1", "10.0.0.3");
    }

    @Test
    void resyncThatAgreesWithTheWatchCorrectsNothing() {
        pods.put("a", "10.0.0.1");
        pods.put("b", null);

        assertThat(pods.resync(pods.beginResync(), list("a", "10.0.0.1", "b", null)))
                .isEqualTo(new PodSet.ResyncResult(false, 0));
    }

    @Test
    void aWatchEventAfterTheListWasAskedForBeatsTheList() {
        pods.put("a", "10.0.0.1");
        long ticket = pods.beginResync();
        pods.put("a", null);         // turned not ready while the list was on its way
        pods.put("new", "10.0.0.9"); // created after the list was taken

        PodSet.ResyncResult result = pods.resync(ticket, list("a", "10.0.0.1"));

        assertThat(result.corrected()).isZero();
        assertThat(pods.servingIps()).containsExactly("10.0.0.9");
    }

    @Test
    void aListTakenBeforeADeletionCannotBringThePodBack() {
        pods.put("a", "10.0.0.1");
        long ticket = pods.beginResync();
        pods.delete("a");

        pods.resync(ticket, list("a", "10.0.0.1"));

        assertThat(pods.servingIps()).isEmpty();
        assertThat(pods.remembered()).as("the deletion is remembered until a later list").isEqualTo(1);
        pods.resync(pods.beginResync(), list());
        assertThat(pods.remembered()).isZero();
    }

    @Test
    void aPodRecreatedUnderTheSameNameIsTakenFromALaterList() {
        pods.put("web-0", "10.0.0.1");
        pods.delete("web-0");

        PodSet.ResyncResult result = pods.resync(pods.beginResync(), list("web-0", "10.0.0.5"));

        assertThat(result.corrected()).isEqualTo(1);
        assertThat(pods.servingIps()).containsExactly("10.0.0.5");
    }

    @Test
    void countsResyncs() {
        assertThat(pods.resyncs()).isZero();
        pods.resync(pods.beginResync(), list());
        pods.resync(pods.beginResync(), list());
        assertThat(pods.resyncs()).isEqualTo(2);
    }
}
