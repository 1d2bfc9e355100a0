package io.inferencegateway.lab.bench.load;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.function.Consumer;

import io.netty.buffer.ByteBuf;

/**
 * Incremental Server-Sent Events parser: bytes in, the {@code data} of each complete event out. Lines
 * and events may be split across network chunks anywhere, even inside a UTF-8 character. Only
 * {@code data:} fields matter here; comments and other fields are skipped, and an event cut off by
 * the end of the stream is not delivered (as the SSE specification says).
 */
final class SseDecoder {

    private byte[] line = new byte[256];
    private int lineLength;
    private final StringBuilder data = new StringBuilder();
    private boolean hasData;

    void feed(ByteBuf buf, Consumer<String> onEvent) {
        int end = buf.writerIndex();
        for (int i = buf.readerIndex(); i < end; i++) {
            byte b = buf.getByte(i);
            if (b == '\n') {
                endLine(onEvent);
            } else {
                append(b);
            }
        }
        buf.readerIndex(end);
    }

    void feed(byte[] bytes, Consumer<String> onEvent) {
        for (byte b : bytes) {
            if (b == '\n') {
                endLine(onEvent);
            } else {
                append(b);
            }
        }
    }

    private void append(byte b) {
        if (lineLength == line.length) {
            line = Arrays.copyOf(line, line.length * 2);
        }
        line[lineLength++] = b;
    }

    private void endLine(Consumer<String> onEvent) {
        int length = lineLength;
        if (length > 0 && line[length - 1] == '\r') {
            length--;
        }
        lineLength = 0;
        if (length == 0) {
            if (hasData) {
                String event = data.toString();
                data.setLength(0);
                hasData = false;
                onEvent.accept(event);
            }
            return;
        }
        if (length >= 5 && line[0] == 'd' && line[1] == 'a' && line[2] == 't' && line[3] == 'a' && line[4] == ':') {
            int start = length > 5 && line[5] == ' ' ? 6 : 5;
            if (hasData) {
                data.append('\n');
            }
            data.append(new String(line, start, length - start, StandardCharsets.UTF_8));
            hasData = true;
        }
    }
}
