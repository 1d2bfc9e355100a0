package io.inferencegateway.domain;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Set;

import org.junit.jupiter.api.Test;

/** A request is built by naming its fields; one built from another changes what differs and keeps the rest. */
class InferenceRequestTest {

    @Test
    void aFieldLeftUnsetIsWhatABodyWithoutItAndAnUnclassifiedRequestGive() {
        InferenceRequest r = InferenceRequest.builder("m").build();

        assertThat(r.model()).isEqualTo("m");
        assertThat(r.body().model()).isEqualTo("m");
        assertThat(r.adapter()).isNull();
        assertThat(r.promptText()).isEmpty();
        assertThat(r.promptTokensEstimate()).isZero();
        assertThat(r.stream()).isFalse();
        assertThat(r.streamOptions()).isFalse();
        assertThat(r.maxTokens()).isEqualTo(-1);
        assertThat(r.priority()).isEqualTo(Priority.STANDARD);
        assertThat(r.targets()).isEqualTo(LatencyTargets.NONE);
        assertThat(r.residency()).isEqualTo(Residency.ANY);
        assertThat(r.promptCacheKey()).isNull();
        assertThat(r.user()).isNull();
        assertThat(r.session()).isNull();
        assertThat(r.fairnessKey()).isNull();
    }

    @Test
    void aRequestBuiltFromItsBodyReadsTheBodyItself() {
        ParsedBody body = ParsedBody.builder("chat").promptText("user: hi").promptTokensEstimate(2).stream(true)
                .streamOptions(true).maxTokens(64).promptCacheKey("conv-7").user("alice").build();

        InferenceRequest r = InferenceRequest.builder(body).model("llama").build();

        assertThat(r.body()).isSameAs(body);
        assertThat(r.model()).as("served as the rewrite's target").isEqualTo("llama");
        assertThat(r.body().model()).as("the body names what the client asked for").isEqualTo("chat");
        assertThat(r.promptText()).isEqualTo("user: hi");
        assertThat(r.promptTokensEstimate()).isEqualTo(2);
        assertThat(r.stream()).isTrue();
        assertThat(r.streamOptions()).isTrue();
        assertThat(r.maxTokens()).isEqualTo(64);
        assertThat(r.promptCacheKey()).isEqualTo("conv-7");
        assertThat(r.user()).isEqualTo("alice");
    }

    @Test
    void anotherRequestBuiltFromOneChangesWhatDiffersAndKeepsTheRest() {
        Residency eu = new Residency(Set.of("eu-west"), false);
        InferenceRequest primary = InferenceRequest.builder("llama").promptText("p").stream(true).priority(7)
                .targets(new LatencyTargets(200, 20)).residency(eu).session("conv-7").fairnessKey("user-9").build();

        InferenceRequest shadow = primary.toBuilder().model("llama-v2").adapter(null).priority(Priority.SHEDDABLE)
                .targets(LatencyTargets.NONE).build();

        assertThat(shadow.model()).isEqualTo("llama-v2");
        assertThat(shadow.priority()).isEqualTo(Priority.SHEDDABLE);
        assertThat(shadow.targets()).isEqualTo(LatencyTargets.NONE);
        assertThat(shadow.body()).isSameAs(primary.body());
        assertThat(shadow.residency()).isEqualTo(eu);
        assertThat(shadow.session()).isEqualTo("conv-7");
        assertThat(shadow.fairnessKey()).isEqualTo("user-9");
        assertThat(primary.model()).as("the first is left as it was").isEqualTo("llama");

        InferenceRequest longer = primary.toBuilder().promptText("p and more").build();
        assertThat(longer.promptText()).isEqualTo("p and more");
        assertThat(longer.stream()).isTrue();
        assertThat(primary.promptText()).isEqualTo("p");
    }
}
