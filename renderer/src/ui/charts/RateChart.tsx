/**
 * The benchmark charts: rate against cumulative bytes (cache cliffs, throttling), rate against
 * file size (log axis), and rate over time; with the interface ceiling and cliffs marked.
 */
import type { ChartOptions } from 'chart.js';
import type { AnnotationOptions, PartialEventContext } from 'chartjs-plugin-annotation';
import { useMemo, useState } from 'react';
import { formatBytes, formatDuration, formatRate } from '../../../../app/common/format.js';
import {
  decimationFor,
  thinPoints,
  type CeilingMark,
  type CliffMark,
  type Point,
} from '../result/series.js';
import { useChartTheme, type ChartTheme } from './chart-theme.js';
import { Chart } from './register.js';
import { lineChartBase, PlumbChart, type LineDataset } from './PlumbChart.js';

export type RateAxis = 'cumulative' | 'size' | 'time';

export interface RateSeries {
  label: string;
  color: string;
  /** Read phases: dashed lines, diamond points (told apart without colour). */
  dashed?: boolean;
  /** A curve of samples, joined by a line (files come in any order of size: dots). */
  line?: boolean;
  /** Samples behind the drawn points, when they were thinned before (for the count shown). */
  samples?: number;
  points: Point[];
}

/** Slices of the x axis a chart's points are thinned to for drawing (two points each at most). */
const drawBuckets = 800;

export interface RateChartProps {
  title: string;
  caption: string;
  axis: RateAxis;
  series: RateSeries[];
  ceiling?: CeilingMark | null;
  cliffs?: CliffMark[];
  /** What the empty chart says before the first point. */
  waiting?: string;
  /** For a printed report: light colours, sharp on paper, no zoom button. */
  print?: boolean;
}

const axisTitles: Record<RateAxis, string> = {
  cumulative: 'Data so far',
  size: 'File size',
  time: 'Time',
};

/**
 * Labels on 1 × 10ⁿ, and on 2 and 5 × 10ⁿ too when the axis spans few decades, so labels on a
 * log axis never run into each other.
 */
function logTick(value: number, decades: number): string {
  const mantissa = value / 10 ** Math.floor(Math.log10(value));
  const steps = decades <= 1.5 ? [1, 2, 5] : [1];
  return steps.some((m) => Math.abs(mantissa - m) < 1e-6) ? formatBytes(value) : '';
}

function xFormat(axis: RateAxis): (value: number, decades: number) => string {
  if (axis === 'time') return (v) => formatDuration(v);
  if (axis === 'size') return logTick;
  return (v) => formatBytes(v);
}

function annotations(
  theme: ChartTheme,
  axis: RateAxis,
  ceiling: CeilingMark | null | undefined,
  cliffs: CliffMark[],
): Record<string, AnnotationOptions> {
  const out: Record<string, AnnotationOptions> = {};
  if (ceiling) {
    out.ceiling = {
      type: 'line',
      scaleID: 'y',
      value: ceiling.rate,
      borderColor: theme.ceiling,
      borderWidth: 1.5,
      borderDash: [6, 4],
      label: {
        display: true,
        content: `${ceiling.label} · ${formatRate(ceiling.rate)}`,
        position: 'start',
        backgroundColor: theme.surface,
        color: theme.ceiling,
        font: { size: 11, weight: 'bold' },
        padding: 3,
      },
    };
  }
  if (axis === 'cumulative') {
    cliffs.forEach((cliff, index) => {
      out[`cliff${index}`] = {
        type: 'line',
        scaleID: 'x',
        value: cliff.atBytes,
        borderColor: theme.cliff,
        borderWidth: 2,
      };
      // Beside the line where no point is: after a drop the rate is low, so the top right of the
      // line is empty; when the label does not fit there (a late drop) it goes on the left, low
      // down, where the rate before the drop was high. Read from the axes as drawn (zoom
      // included). Steps of one drop stack instead of covering each other.
      const lines = cliffLines(cliff);
      const left = ({ chart }: PartialEventContext) => {
        const x = chart.scales.x;
        if (!x) return false;
        const at = x.getPixelForValue(cliff.atBytes);
        chart.ctx.save();
        chart.ctx.font = `bold ${labelFont.size}px ${Chart.defaults.font.family}`;
        const width = Math.max(...lines.map((line) => chart.ctx.measureText(line).width)) + 16;
        chart.ctx.restore();
        return at + width > chart.chartArea.right && at - width >= chart.chartArea.left;
      };
      out[`cliffLabel${index}`] = {
        type: 'label',
        xValue: cliff.atBytes,
        yValue: (context) => (left(context) ? 0 : (context.chart.scales.y?.max ?? 0)),
        position: (context) =>
          left(context) ? { x: 'end', y: 'end' } : { x: 'start', y: 'start' },
        xAdjust: (context) => (left(context) ? -6 : 6),
        yAdjust: (context) => (left(context) ? -4 - index * 36 : 4 + index * 36),
        content: lines,
        textAlign: 'start',
        backgroundColor: theme.cliff,
        color: theme.surface,
        font: labelFont,
        padding: 4,
        borderRadius: 4,
      };
    });
  }
  return out;
}

const labelFont = { size: 11, weight: 'bold' } as const;

/** A cliff's label on the chart, in two short lines so it fits beside its line. */
function cliffLines(cliff: CliffMark): string[] {
  return [
    `${cliff.label} at ${formatBytes(cliff.atBytes)}`,
    `${formatRate(cliff.beforeRate)} → ${formatRate(cliff.afterRate)}`,
  ];
}

/** A cliff in words, on the chart and in its accessible name. */
function cliffText(cliff: CliffMark): string {
  return `${cliff.label} at ${formatBytes(cliff.atBytes)}: ${formatRate(cliff.beforeRate)} → ${formatRate(cliff.afterRate)}`;
}

export function RateChart({
  title,
  caption,
  axis,
  series,
  ceiling,
  cliffs = [],
  waiting,
  print = false,
}: RateChartProps) {
  const theme = useChartTheme(print ? 'light' : undefined);
  const [resetToken, setResetToken] = useState(0);
  const pointCount = series.reduce((sum, s) => sum + s.points.length, 0);
  const sampleCount = series.reduce((sum, s) => sum + (s.samples ?? s.points.length), 0);
  const choice = decimationFor(sampleCount);
  const empty = pointCount === 0;

  const datasets = useMemo<LineDataset[]>(
    () =>
      series.map((s) => {
        // Files come in any order of size, so joining them would only draw noise; samples do join.
        const line = axis === 'time' || s.line === true;
        return {
          label: s.label,
          data: choice.enabled ? thinPoints(s.points, drawBuckets, axis === 'size') : s.points,
          borderColor: s.color,
          backgroundColor: s.color,
          borderWidth: line ? 1.5 : 0,
          borderDash: s.dashed ? [5, 4] : [],
          showLine: line,
          pointStyle: s.dashed ? 'rectRot' : 'circle',
          pointRadius: line && choice.enabled ? 0 : choice.pointRadius,
          pointHoverRadius: 4,
          tension: 0,
          spanGaps: true,
        };
      }),
    [series, axis, choice.pointRadius],
  );

  const options = useMemo<ChartOptions<'line'>>(() => {
    const formatX = xFormat(axis);
    return {
      ...lineChartBase(print),
      normalized: true,
      layout: { padding: { top: 4, right: 8 } },
      scales: {
        x: {
          type: axis === 'size' ? 'logarithmic' : 'linear',
          // No axes on an empty chart: a range of nothing drew "1 B/s" over and over.
          display: !empty,
          // Data so far and time start at nothing, not at the first point (a window's worth in).
          ...(axis === 'size' ? {} : { min: 0 }),
          title: { display: true, text: axisTitles[axis], color: theme.muted },
          ticks: {
            color: theme.muted,
            callback: (value, _index, ticks) => {
              const first = ticks[0]?.value ?? 1;
              const last = ticks.at(-1)?.value ?? 1;
              return formatX(Number(value), Math.log10(Math.max(last, 1) / Math.max(first, 1)));
            },
            maxRotation: 0,
            autoSkipPadding: 12,
          },
          grid: { color: theme.grid },
          border: { color: theme.grid },
        },
        y: {
          type: 'linear',
          display: !empty,
          beginAtZero: true,
          // Room above the highest point, so none sits on the top edge or is cut by it.
          grace: '10%',
          title: { display: true, text: 'Rate', color: theme.muted },
          ticks: { color: theme.muted, callback: (value) => formatRate(Number(value)) },
          grid: { color: theme.grid },
          border: { color: theme.grid },
        },
      },
      plugins: {
        legend: {
          display: series.length > 1,
          position: 'bottom',
          labels: { color: theme.text, usePointStyle: true, boxWidth: 8, boxHeight: 8 },
        },
        tooltip: {
          callbacks: {
            label: (item) => {
              const point = item.raw as Point;
              const where = axis === 'size' ? formatBytes(point.x) : formatX(point.x, 0);
              return `${item.dataset.label ?? ''}: ${formatRate(point.y)} at ${where}`;
            },
            title: () => '',
          },
        },
        // Thinned above, by the one decimator (app/common/decimate.ts), on every axis.
        decimation: { enabled: false },
        annotation: { annotations: annotations(theme, axis, ceiling, cliffs) },
        zoom: {
          zoom: {
            wheel: { enabled: true },
            pinch: { enabled: true },
            mode: 'x',
          },
          pan: { enabled: true, mode: 'x', modifierKey: 'shift' },
        },
      },
    };
  }, [axis, theme, ceiling, cliffs, series.length, choice.enabled, print, empty]);

  return (
    <figure className="chart-card" data-points={pointCount} data-samples={sampleCount}>
      <header className="chart-header">
        <div>
          <h3 className="chart-title">{title}</h3>
          <p className="chart-caption">{caption}</p>
        </div>
        {print ? null : (
          <button
            type="button"
            className="button button-small button-quiet"
            onClick={() => setResetToken((n) => n + 1)}
            aria-label={`Reset zoom of ${title}`}
            title="Scroll over the chart or drag a box to zoom; Shift + drag pans"
          >
            Reset zoom
          </button>
        )}
      </header>
      <div className="chart-body">
        <PlumbChart
          label={`${title}. ${caption}${cliffs.map((c) => ` ${cliffText(c)}.`).join('')}`}
          datasets={datasets}
          options={options}
          resetToken={resetToken}
        />
        {empty ? <p className="chart-waiting">{waiting ?? 'No data yet.'}</p> : null}
      </div>
    </figure>
  );
}
