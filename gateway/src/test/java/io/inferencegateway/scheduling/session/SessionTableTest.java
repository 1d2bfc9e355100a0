package io.inferencegateway.scheduling.session;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.Test;

import io.inferencegateway.domain.Endpoint;

class SessionTableTest {

    static final long S = 1_000_000_000L;
    final Endpoint p1 = new Endpoint("10.0.0.1", 8000);
    final Endpoint p2 = new Endpoint("10.0.0.2", 8000);
    final Endpoint p3 = new Endpoint("10.0.0.3", 8000);

    @Test
    void remembersASessionsPodAndWhereItWasBefore() {
        SessionTable t = new SessionTable(100, 60 * S);
        long a = SessionTable.hash("conversation-a");

        assertThat(t.pod(a, 0)).isNull();
        assertThat(t.remember(a, p1, 0)).as("a new session").isNull();
        assertThat(t.pod(a, S)).isEqualTo(p1);
        assertThat(t.remember(a, p1, 2 * S)).isEqualTo(p1);
        assertThat(t.size(2 * S)).isEqualTo(1);
        assertThat(t.pod(SessionTable.hash("conversation-b"), 2 * S)).isNull();
    }

    @Test
    void forgetsASessionUnseenForTheIdleTimeoutButNotOneSeenSince() {
        SessionTable t = new SessionTable(100, 60 * S);
        long a = SessionTable.hash("a");
        long b = SessionTable.hash("b");
        t.remember(a, p1, 0);
        t.remember(b, p2, 0);

        assertThat(t.pod(b, 50 * S)).as("seen at 50 s").isEqualTo(p2);
        assertThat(t.size(59 * S)).isEqualTo(2);
        assertThat(t.size(60 * S)).as("a unseen for 60 s").isEqualTo(1);
        assertThat(t.pod(a, 60 * S)).isNull();
        assertThat(t.pod(b, 109 * S)).isEqualTo(p2);
        assertThat(t.remember(a, p3, 110 * S)).as("a forgotten session starts afresh, no move").isNull();
        assertThat(t.moves(SessionTable.OUTSCORED)).isZero();
    }

    @Test
    void holdsAtMostMaxSessions() {
        SessionTable t = new SessionTable(100, 60 * S);
        for (int i = 0; i < 10_000; i++) {
            t.remember(SessionTable.hash("conversation-" + i), p1, i);
        }
        assertThat(t.size(10_000)).isEqualTo(100);
        assertThat(t.pod(SessionTable.hash("conversation-9999"), 10_001)).as("the latest is kept").isEqualTo(p1);
    }

    @Test
    void evictsTheLeastRecentlySeenSession() {
        SessionTable t = new SessionTable(32, 60 * S); // 16 segments of 2
        List<Long> sameSegment = new ArrayList<>();
        for (int i = 0; sameSegment.size() < 3; i++) {
            long h = SessionTable.hash("s" + i);
            if ((h >>> 59 & 15) == 0) {
                sameSegment.add(h);
            }
        }
        long a = sameSegment.get(0);
        long b = sameSegment.get(1);
        long c = sameSegment.get(2);
        t.remember(a, p1, 0);
        t.remember(b, p2, 1);
        t.pod(a, 2); // a seen again: b is now the least recently seen

        t.remember(c, p3, 3);

        assertThat(t.pod(a, 4)).isEqualTo(p1);
        assertThat(t.pod(b, 4)).isNull();
        assertThat(t.pod(c, 4)).isEqualTo(p3);
    }

    @Test
    void countsMovesByTheReasonNotedBeforeThem() {
        SessionTable t = new SessionTable(100, 60 * S);
        long a = SessionTable.hash("a");
        t.remember(a, p1, 0);

        t.leaving(a, SessionTable.SATURATED);
        assertThat(t.remember(a, p2, 1)).isEqualTo(p1);
        t.leaving(a, SessionTable.POD_GONE);
        t.remember(a, p3, 2);
        t.remember(a, p1, 3); // no reason noted: the scorers sent it elsewhere
        t.leaving(a, SessionTable.SATURATED);
        t.remember(a, p1, 4); // noted, but it stayed: no move

        assertThat(t.moves(SessionTable.SATURATED)).isEqualTo(1);
        assertThat(t.moves(SessionTable.POD_GONE)).isEqualTo(1);
        assertThat(t.moves(SessionTable.OUTSCORED)).isEqualTo(1);
        assertThat(t.pod(a, 5)).isEqualTo(p1);
    }

    @Test
    void theHashOfAKeyIsTheSameEverywhereAndDiffersBetweenKeys() {
        assertThat(SessionTable.hash("conversation-42")).isEqualTo(SessionTable.hash(new String("conversation-42")))
                .isNotEqualTo(SessionTable.hash("conversation-43"));
    }

    @Test
    void countsTheSessionsOnEachPodThroughMovesPushOutsAndIdleTime() {
        SessionTable t = new SessionTable(16, 60 * S); // 16 stripes of 1
        for (int i = 0; i < 6; i++) {
            t.remember(SessionTable.hash("s" + i), i < 4 ? p1 : p2, 0);
        }
        int held = t.sessionsOn(p1) + t.sessionsOn(p2);
        assertThat(held).as("sessions that shared a stripe pushed each other out").isEqualTo(t.size(0));

        long moving = SessionTable.hash("moving");
        t.remember(moving, p1, S);
        int onP1 = t.sessionsOn(p1);
        int onP2 = t.sessionsOn(p2);
        t.remember(moving, p3, 2 * S);
        assertThat(t.sessionsOn(p1)).isEqualTo(onP1 - 1);
        assertThat(t.sessionsOn(p3)).isEqualTo(1);
        assertThat(t.sessionsOn(p2)).isEqualTo(onP2);

        assertThat(t.pod(moving, 62 * S)).as("idle: forgotten").isNull();
        assertThat(t.sessionsOn(p3)).isZero();
        t.size(200 * S); // drops every idle session
        assertThat(t.sessionsOn(p1) + t.sessionsOn(p2)).isZero();
    }
}
