package io.inferencegateway.domain;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** What a listener keeps on a request's record it keeps under a typed key of its own. */
class RequestRecordTest {

    static final RequestRecord.Key<String> NOTE = RequestRecord.Key.of("note", String.class);
    static final RequestRecord.Key<Integer> COUNT = RequestRecord.Key.of("count", Integer.class);

    @Test
    void aRecordKeepsEachKeysValueApartAndTyped() {
        RequestRecord r = new RequestRecord(0, 0, "POST", "/v1/completions", null, null, null);

        assertThat(r.get(NOTE)).isNull();
        r.put(NOTE, "kept");
        r.put(COUNT, 3);

        assertThat(r.get(NOTE)).isEqualTo("kept");
        assertThat(r.get(COUNT)).isEqualTo(3);
        r.put(NOTE, null);
        assertThat(r.get(NOTE)).isNull();
        assertThat(r.get(COUNT)).isEqualTo(3);
    }
}
