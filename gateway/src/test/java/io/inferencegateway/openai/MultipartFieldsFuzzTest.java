package io.inferencegateway.openai;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.Map;
import java.util.Set;

import com.code_intelligence.jazzer.api.FuzzedDataProvider;
import com.code_intelligence.jazzer.junit.FuzzTest;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;

/**
 * Multipart bodies: any bytes under any content type's boundary are read without an exception, the body left
 * unread and only wanted fields returned; and a form made of fuzzed parts gives back, for each wanted name, the
 * value of the first part of that name that is not a file (when no value holds the delimiter, which would end the
 * part there). The first byte picks which; the corpus is in {@code MultipartFieldsFuzzTestInputs/}.
 */
class MultipartFieldsFuzzTest {

    private static final Set<String> WANTED = Set.of("model", "stream");
    private static final String[] NAMES = {"model", "stream", "file", "prompt"};

    @FuzzTest(maxDuration = "2m")
    void readsTheFieldsAFormWasMadeOf(FuzzedDataProvider data) {
        if (data.consumeBoolean()) {
            String boundary = MultipartFields.boundary(data.consumeString(100));
            ByteBuf body = Unpooled.wrappedBuffer(data.consumeRemainingAsBytes());
            if (boundary != null) {
                Map<String, String> read = MultipartFields.read(body, boundary, WANTED);
                assertThat(WANTED).containsAll(read.keySet());
                assertThat(body.readerIndex()).isZero();
            }
            return;
        }
        String boundary = data.consumeAsciiString(70).replaceAll("[^0-9A-Za-z'()+_,./:=?-]", "");
        if (boundary.isEmpty()) {
            boundary = "b";
        }
        StringBuilder form = new StringBuilder(data.consumeBoolean() ? "" : "preamble\r\n");
        Map<String, String> expected = new HashMap<>();
        boolean delimiterInside = false;
        for (int parts = data.consumeInt(0, 6); parts > 0; parts--) {
            String name = NAMES[data.consumeInt(0, NAMES.length - 1)];
            boolean file = data.consumeBoolean();
            boolean quoted = data.consumeBoolean();
            String value = data.consumeAsciiString(40);
            form.append("--").append(boundary).append("\r\nContent-Disposition: form-data; name=")
                    .append(quoted ? "\"" + name + "\"" : name)
                    .append(file ? "; filename=\"f.bin\"\r\nContent-Type: application/octet-stream" : "")
                    .append("\r\n\r\n").append(value).append("\r\n");
            delimiterInside |= (value + "\r\n").contains("\r\n--" + boundary) || value.contains("\r\n\r\n");
            if (!file && WANTED.contains(name)) {
                expected.putIfAbsent(name, value);
            }
        }
        form.append("--").append(boundary).append("--\r\n");
        Map<String, String> read = MultipartFields.read(
                Unpooled.copiedBuffer(form, StandardCharsets.US_ASCII), boundary, WANTED);
        if (!delimiterInside) {
            assertThat(read).isEqualTo(expected);
        }
    }
}
