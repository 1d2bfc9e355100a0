package io.inferencegateway.tokenize;

import java.time.LocalDateTime;
import java.time.format.DateTimeFormatter;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.BiConsumer;

import com.hubspot.jinjava.Jinjava;
import com.hubspot.jinjava.JinjavaConfig;
import com.hubspot.jinjava.LegacyOverrides;
import com.hubspot.jinjava.interpret.JinjavaInterpreter;
import com.hubspot.jinjava.interpret.RenderResult;
import com.hubspot.jinjava.interpret.TemplateError;
import com.hubspot.jinjava.lib.filter.Filter;
import com.hubspot.jinjava.lib.fn.ELFunctionDefinition;

/**
 * A model's chat template (the Jinja text of its {@code tokenizer_config.json}) rendered as the engines render it:
 * Python's Jinja with {@code trim_blocks} and {@code lstrip_blocks}, and the helpers Hugging Face's
 * {@code apply_chat_template} gives every template ({@code raise_exception}, {@code strftime_now}, and a {@code tojson}
 * that writes as Python's {@code json.dumps(ensure_ascii=False)} does, with a space after each comma and colon, since
 * the rendered text is what gets tokenized).
 *
 * <p>Thread-safe: Jinjava renders each call with an interpreter of its own.
 */
final class ChatTemplate {

    private final String template;
    private final Map<String, Object> specialTokens;
    private final Jinjava jinja;

    /**
     * @param template      the Jinja text
     * @param specialTokens the names a template may read ({@code bos_token}, {@code eos_token}, ...) and their text
     */
    ChatTemplate(String template, Map<String, String> specialTokens) {
        this.template = template;
        this.specialTokens = Map.copyOf(specialTokens);
        this.jinja = new Jinjava(JinjavaConfig.newBuilder()
                .withTrimBlocks(true)
                .withLstripBlocks(true)
                .withFailOnUnknownTokens(false)
                .withLegacyOverrides(LegacyOverrides.newBuilder()
                        .withUseNaturalOperatorPrecedence(true)
                        .withParseWhitespaceControlStrictly(true)
                        .withKeepNullableLoopValues(true)
                        .withUseTrimmingForNotesAndExpressions(true)
                        .build())
                .build());
        jinja.registerFilter(new ToJson());
        jinja.registerFunction(new ELFunctionDefinition("", "raise_exception", ChatTemplate.class,
                "raiseException", String.class));
        jinja.registerFunction(new ELFunctionDefinition("", "strftime_now", ChatTemplate.class,
                "strftimeNow", String.class));
    }

    /**
     * The prompt text for these messages.
     *
     * @param messages            the chat messages as plain maps and lists (the request's JSON)
     * @param tools               the tools offered, or null
     * @param addGenerationPrompt whether to end with the assistant's turn opening
     * @param arguments           more names for the template (a request's {@code chat_template_kwargs}, such as
     *                            {@code enable_thinking}); they cannot replace the ones above
     * @throws TemplateException when the template refuses the messages ({@code raise_exception}) or cannot be rendered
     */
    String render(List<?> messages, List<?> tools, boolean addGenerationPrompt, Map<String, Object> arguments) {
        Map<String, Object> context = new HashMap<>(arguments);
        context.putAll(specialTokens);
        context.put("messages", messages);
        context.put("tools", tools);
        context.put("add_generation_prompt", addGenerationPrompt);
        RenderResult result = jinja.renderForResult(template, context);
        for (TemplateError error : result.getErrors()) {
            if (error.getSeverity() == TemplateError.ErrorType.FATAL) {
                for (Throwable t = error.getException(); t != null; t = t.getCause()) {
                    if (t instanceof TemplateException refusal) {
                        throw refusal;
                    }
                }
                throw new TemplateException(error.getMessage());
            }
        }
        return result.getOutput();
    }

    /** What a template's {@code raise_exception(message)} does: the request is refused with that message. */
    public static String raiseException(String message) {
        throw new TemplateException(message);
    }

    /** A template's {@code strftime_now(format)}: the local time, for the common C format codes. */
    public static String strftimeNow(String format) {
        LocalDateTime now = LocalDateTime.now();
        StringBuilder out = new StringBuilder();
        for (int i = 0; i < format.length(); i++) {
            char c = format.charAt(i);
            if (c != '%' || i + 1 == format.length()) {
                out.append(c);
                continue;
            }
            char code = format.charAt(++i);
            String pattern = switch (code) {
                case 'd' -> "dd";
                case 'm' -> "MM";
                case 'Y' -> "yyyy";
                case 'y' -> "yy";
                case 'b' -> "MMM";
                case 'B' -> "MMMM";
                case 'H' -> "HH";
                case 'M' -> "mm";
                case 'S' -> "ss";
                case 'a' -> "EEE";
                case 'A' -> "EEEE";
                default -> null;
            };
            out.append(pattern == null ? "%" + code : now.format(DateTimeFormatter.ofPattern(pattern)));
        }
        return out.toString();
    }

    /**
     * {@code value | tojson} and {@code value | tojson(indent=n)}, written as Python's {@code json.dumps} with
     * {@code ensure_ascii=False} writes (Hugging Face's own filter): {@code ", "} and {@code ": "} between items on one
     * line; with an indent, one item a line and {@code ","} at its end.
     */
    private static final class ToJson implements Filter {
        @Override
        public String getName() {
            return "tojson";
        }

        @Override
        public Object filter(Object value, JinjavaInterpreter interpreter, String... args) {
            return write(value, args.length > 0 && args[0] != null ? Integer.parseInt(args[0].trim()) : -1);
        }

        @Override
        public Object filter(Object value, JinjavaInterpreter interpreter, Object[] args, Map<String, Object> kwargs) {
            Object indent = kwargs.containsKey("indent") ? kwargs.get("indent") : args.length > 0 ? args[0] : null;
            return write(value, indent == null ? -1 : Integer.parseInt(indent.toString().trim()));
        }

        static String write(Object value, int indent) {
            StringBuilder out = new StringBuilder();
            write(value, indent, 0, out);
            return out.toString();
        }

        private static void write(Object value, int indent, int depth, StringBuilder out) {
            if (value == null) {
                out.append("null");
            } else if (value instanceof Map<?, ?> map) {
                container(map.entrySet(), '{', '}', indent, depth, out, (e, o) -> {
                    string(String.valueOf(e.getKey()), o);
                    o.append(": ");
                    write(e.getValue(), indent, depth + 1, o);
                });
            } else if (value instanceof Collection<?> list) {
                container(list, '[', ']', indent, depth, out, (v, o) -> write(v, indent, depth + 1, o));
            } else if (value instanceof Boolean || value instanceof Number) {
                out.append(value);
            } else {
                string(value.toString(), out);
            }
        }

        private static <T> void container(Collection<T> items, char open, char close, int indent, int depth,
                StringBuilder out, BiConsumer<T, StringBuilder> item) {
            out.append(open);
            boolean first = true;
            for (T t : items) {
                out.append(first ? "" : indent < 0 ? ", " : ",");
                newline(indent, depth + 1, out);
                item.accept(t, out);
                first = false;
            }
            if (!first) {
                newline(indent, depth, out);
            }
            out.append(close);
        }

        private static void newline(int indent, int depth, StringBuilder out) {
            if (indent >= 0) {
                out.append('\n').append(" ".repeat(indent * depth));
            }
        }

        private static void string(String s, StringBuilder out) {
            out.append('"');
            for (int i = 0; i < s.length(); i++) {
                char c = s.charAt(i);
                switch (c) {
                    case '"' -> out.append("\\\"");
                    case '\\' -> out.append("\\\\");
                    case '\n' -> out.append("\\n");
                    case '\r' -> out.append("\\r");
                    case '\t' -> out.append("\\t");
                    case '\b' -> out.append("\\b");
                    case '\f' -> out.append("\\f");
                    default -> {
                        if (c < 0x20) {
                            out.append(String.format("\\u%04x", (int) c));
                        } else {
                            out.append(c);
                        }
                    }
                }
            }
            out.append('"');
        }
    }
}
