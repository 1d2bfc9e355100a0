package io.inferencegateway.lab.bench.report;

import java.awt.Color;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

import org.knowm.xchart.BitmapEncoder;
import org.knowm.xchart.CategoryChart;
import org.knowm.xchart.CategoryChartBuilder;
import org.knowm.xchart.XYChart;
import org.knowm.xchart.XYChartBuilder;
import org.knowm.xchart.XYSeries;
import org.knowm.xchart.internal.chartpart.Chart;
import org.knowm.xchart.style.CategoryStyler;
import org.knowm.xchart.style.Styler;
import org.knowm.xchart.style.XYStyler;
import org.knowm.xchart.style.markers.SeriesMarkers;

/** PNG charts with XChart: TTFT CDF per scenario, p99 TTFT per scenario and policy. */
public final class Charts {

    /** Most points drawn per CDF line; more add nothing visible. */
    private static final int CDF_POINTS = 400;
    private static final Color[] PALETTE = {
        new Color(0x9E, 0x9E, 0x9E), // round-robin first: neutral grey
        new Color(0x42, 0x85, 0xF4), new Color(0xF4, 0xA2, 0x42), new Color(0x2E, 0xA0, 0x4F),
        new Color(0xDB, 0x44, 0x37), new Color(0x8E, 0x44, 0xAD),
    };

    static {
        System.setProperty("java.awt.headless", "true");
    }

    private Charts() {
    }

    /** One line per policy: the share of successful requests with TTFT at or below x (log scale). */
    public static void ttftCdf(List<RunReport> runs, Path png) throws IOException {
        String scenario = runs.get(0).scenario();
        XYChart chart = new XYChartBuilder().width(900).height(540)
                .title(scenario + ": TTFT distribution (simulated time)")
                .xAxisTitle("time to first token (ms, log scale)").yAxisTitle("share of requests").build();
        XYStyler style = chart.getStyler();
        style.setDefaultSeriesRenderStyle(XYSeries.XYSeriesRenderStyle.Line);
        style.setXAxisLogarithmic(true);
        style.setXAxisLogarithmicDecadeOnly(false);
        style.setXAxisDecimalPattern("#,##0.#");
        style.setYAxisMin(0.0);
        style.setYAxisMax(1.0);
        style.setLegendPosition(Styler.LegendPosition.InsideSE);
        style.setSeriesColors(colours(runs.stream().map(RunReport::policy).toList()));
        style.setChartBackgroundColor(Color.WHITE);
        for (RunReport run : runs) {
            Distribution ttft = RunSummary.ttftOf(run.recording().results());
            if (ttft.isEmpty()) {
                continue;
            }
            double[][] xy = cdfPoints(ttft);
            String label = String.format("%s (p50 %s, p99 %s)", run.policy(), MarkdownReport.time(run.summary().ttft().p50Ms()),
                    MarkdownReport.time(run.summary().ttft().p99Ms()));
            chart.addSeries(label, xy[0], xy[1]).setMarker(SeriesMarkers.NONE).setLineWidth(2.5f);
        }
        save(chart, png);
    }

    /** Grouped bars: p99 TTFT of every policy in every scenario (log scale, labelled). */
    public static void p99Bars(List<List<RunReport>> scenarios, Path png) throws IOException {
        Set<String> policies = new LinkedHashSet<>();
        List<String> names = new ArrayList<>();
        for (List<RunReport> runs : scenarios) {
            names.add(runs.get(0).scenario());
            runs.forEach(r -> policies.add(r.policy()));
        }
        CategoryChart chart = new CategoryChartBuilder().width(Math.max(900, 170 * names.size())).height(560)
                .title("p99 time to first token by scenario and policy (simulated time, lower is better)")
                .xAxisTitle("scenario").yAxisTitle("p99 TTFT (ms, log scale)").build();
        CategoryStyler style = chart.getStyler();
        style.setYAxisLogarithmic(true);
        style.setYAxisLogarithmicDecadeOnly(false);
        style.setYAxisDecimalPattern("#,##0.#");
        style.setLabelsVisible(true);
        style.setLabelsRotation(90);
        style.setLabelsPosition(0.5);
        style.setLegendPosition(Styler.LegendPosition.OutsideS);
        style.setLegendLayout(Styler.LegendLayout.Horizontal);
        style.setSeriesColors(colours(List.copyOf(policies)));
        style.setChartBackgroundColor(Color.WHITE);
        double smallest = Double.POSITIVE_INFINITY;
        for (String policy : policies) {
            List<Double> values = new ArrayList<>();
            for (List<RunReport> runs : scenarios) {
                double p99 = runs.stream().filter(r -> r.policy().equals(policy)).findFirst()
                        .map(r -> r.summary().ttft().p99Ms()).orElse(Double.NaN);
                values.add(Double.isFinite(p99) ? Math.max(p99, 0.001) : null);
                if (Double.isFinite(p99)) {
                    smallest = Math.min(smallest, Math.max(p99, 0.001));
                }
            }
            chart.addSeries(policy, names, values);
        }
        // bars rise from the axis minimum, which a log axis needs above zero: the decade below the data
        style.setYAxisMin(Double.isFinite(smallest) ? Math.pow(10, Math.floor(Math.log10(smallest))) : 1.0);
        save(chart, png);
    }

    /** The CDF as a step line with at most {@link #CDF_POINTS} points, x in milliseconds. */
    static double[][] cdfPoints(Distribution d) {
        long[] sorted = d.sorted();
        int n = sorted.length;
        int points = Math.min(n, CDF_POINTS);
        double[] x = new double[points];
        double[] y = new double[points];
        for (int i = 0; i < points; i++) {
            int index = points == n ? i : (int) Math.round((double) i * (n - 1) / (points - 1));
            x[i] = Math.max(sorted[index] / 1e6, 0.001);
            y[i] = (double) (index + 1) / n;
        }
        return new double[][] {x, y};
    }

    /** The baseline in grey, the others in distinct colours, in the given order. */
    private static Color[] colours(List<String> policies) {
        List<Color> colours = new ArrayList<>();
        int next = 1;
        for (String policy : policies) {
            colours.add(policy.equals(MarkdownReport.BASELINE) ? PALETTE[0]
                    : PALETTE[1 + (next++ - 1) % (PALETTE.length - 1)]);
        }
        return colours.toArray(Color[]::new);
    }

    private static void save(Chart<?, ?> chart, Path png) throws IOException {
        Files.createDirectories(png.toAbsolutePath().getParent());
        try (OutputStream out = Files.newOutputStream(png)) {
            BitmapEncoder.saveBitmap(chart, out, BitmapEncoder.BitmapFormat.PNG);
        }
    }
}
