package io.inferencegateway.testing;

import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A table of a Markdown doc, read so that a test can hold the doc to what it describes: the first table below a line
 * the doc has, its header and its rows as trimmed cells, each row with its line number for the failure message.
 * Cells are split at unescaped {@code |}; the delimiter row is skipped.
 */
public record MarkdownTable(List<String> header, List<Row> rows) {

    private static final Pattern CODE = Pattern.compile("`([^`]+)`");

    /** One row: its cells and the line of the doc it is on (from 1). */
    public record Row(int line, List<String> cells) {

        /** The cell in column {@code column}, or "" when the row is short. */
        public String cell(int column) {
            return column < cells.size() ? cells.get(column) : "";
        }
    }

    /**
     * The first table after the first line that starts with {@code marker} (a heading or the sentence above the table).
     *
     * @throws IllegalArgumentException when the doc has no such line or no table below it
     */
    public static MarkdownTable below(String doc, String marker) {
        List<String> lines = doc.lines().toList();
        int at = 0;
        while (at < lines.size() && !lines.get(at).startsWith(marker)) {
            at++;
        }
        if (at == lines.size()) {
            throw new IllegalArgumentException("no line starts with \"" + marker + "\"");
        }
        while (at < lines.size() && !isTableLine(lines.get(at))) {
            at++;
        }
        if (at + 1 >= lines.size() || !lines.get(at + 1).matches("\\s*\\|[\\s:|-]+\\|\\s*")) {
            throw new IllegalArgumentException("no table below \"" + marker + "\"");
        }
        List<String> header = cells(lines.get(at));
        List<Row> rows = new ArrayList<>();
        for (int i = at + 2; i < lines.size() && isTableLine(lines.get(i)); i++) {
            rows.add(new Row(i + 1, cells(lines.get(i))));
        }
        return new MarkdownTable(header, List.copyOf(rows));
    }

    /** The text of every code span in a cell, in order: {@code `a`, `b` (and c)} gives a, b. */
    public static List<String> codeSpans(String cell) {
        List<String> spans = new ArrayList<>();
        Matcher m = CODE.matcher(cell);
        while (m.find()) {
            spans.add(m.group(1));
        }
        return spans;
    }

    private static boolean isTableLine(String line) {
        return line.strip().startsWith("|");
    }

    private static List<String> cells(String line) {
        String row = line.strip();
        row = row.substring(1, row.endsWith("|") && row.length() > 1 ? row.length() - 1 : row.length());
        List<String> cells = new ArrayList<>();
        for (String cell : row.split("(?<!\\\\)\\|", -1)) {
            cells.add(cell.replace("\\|", "|").strip());
        }
        return cells;
    }
}
