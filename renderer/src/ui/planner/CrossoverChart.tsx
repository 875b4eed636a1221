/**
 * Time against burst size for every option, with the crossovers marked: where a bigger cache over
 * a slower link overtakes a small cache over a faster one.
 */
import type { ChartOptions } from 'chart.js';
import { useMemo } from 'react';
import type { Evaluation } from '../../../../app/contract/planner.js';
import { formatGbPerSecond, formatSeconds, formatSize } from '../../../../app/common/format.js';
import { useChartTheme, type ChartTheme } from '../charts/chart-theme.js';
import { lineChartBase, PlumbChart, type LineDataset } from '../charts/PlumbChart.js';

type Point = { x: number; y: number };

/** A curve in words: each straight stretch with its rate, "2 GB/s up to 50 GB, then 1.4 GB/s". */
function curveText(points: readonly (readonly [number, number])[]): string {
  const stretches: string[] = [];
  for (let i = 1; i < points.length; i += 1) {
    const [fromBytes, fromSeconds] = points[i - 1]!;
    const [toBytes, toSeconds] = points[i]!;
    if (toSeconds <= fromSeconds) continue;
    const rate = formatGbPerSecond((toBytes - fromBytes) / (toSeconds - fromSeconds));
    stretches.push(i < points.length - 1 ? `${rate} up to ${formatSize(toBytes)}` : rate);
  }
  return stretches.join(', then ');
}

/** The time the chart's largest burst takes, or the size where the option's disk is full. */
function takesText(points: readonly (readonly [number, number])[], maxBytes: number): string {
  const [endBytes, endSeconds] = points[points.length - 1]!;
  return endBytes < maxBytes
    ? `Does not fit: the disk holds ${formatSize(endBytes)} more today`
    : formatSeconds(endSeconds);
}

/** Each option's curve in its card's colour, and the crossovers as rings on top. */
function crossoverDatasets({ chart }: Evaluation, theme: ChartTheme): LineDataset[] {
  return [
    ...chart.series.map((series) => {
      const color = theme.options[series.option % theme.options.length]!;
      return {
        label: series.name,
        data: series.points.map(([bytes, seconds]) => ({ x: bytes / 1e9, y: seconds })),
        borderColor: color,
        backgroundColor: color,
        borderWidth: 2.5,
        pointRadius: 0,
        pointHoverRadius: 4,
        tension: 0,
      };
    }),
    {
      label: 'Crossovers',
      data: chart.crossovers.map((c) => ({ x: c.bytes / 1e9, y: c.seconds })),
      showLine: false,
      borderColor: theme.text,
      backgroundColor: theme.surface,
      borderWidth: 2,
      pointRadius: 6,
      pointHoverRadius: 7,
      pointStyle: 'circle',
    },
  ];
}

/** Linear axes from zero, the legend below, and tooltips that name who overtakes whom. */
function crossoverOptions(
  evaluation: Evaluation,
  theme: ChartTheme,
  print: boolean,
): ChartOptions<'line'> {
  const { chart } = evaluation;
  const names = new Map(evaluation.options.map((o) => [o.index, o.name]));
  const axis = (text: string) => ({
    type: 'linear' as const,
    min: 0,
    title: { display: true, text, color: theme.muted },
    ticks: { color: theme.muted },
    grid: { color: theme.grid },
  });
  return {
    ...lineChartBase(print),
    scales: {
      x: { ...axis('Burst size (GB)'), max: chart.maxBytes / 1e9 },
      y: axis('Time to write (s)'),
    },
    plugins: {
      legend: {
        position: 'bottom',
        labels: { color: theme.text, usePointStyle: true, boxHeight: 8 },
      },
      tooltip: {
        callbacks: {
          label: (item) => {
            const point = item.raw as Point;
            if (item.dataset.label === 'Crossovers') {
              const crossing = chart.crossovers[item.dataIndex]!;
              return `${formatSize(crossing.bytes)}: ${names.get(crossing.fasterAbove)} overtakes ${names.get(crossing.fasterBelow)}`;
            }
            return `${item.dataset.label}: ${formatSeconds(point.y)} for ${formatSize(point.x * 1e9)}`;
          },
        },
      },
    },
  };
}

/** `print`: drawn at print resolution in light colours, for a printed report. */
export function CrossoverChart({
  evaluation,
  print = false,
}: {
  evaluation: Evaluation;
  print?: boolean;
}) {
  const theme = useChartTheme(print ? 'light' : undefined);
  const { chart } = evaluation;
  const datasets = useMemo(() => crossoverDatasets(evaluation, theme), [evaluation, theme]);
  const options = useMemo(
    () => crossoverOptions(evaluation, theme, print),
    [evaluation, theme, print],
  );
  const names = new Map(evaluation.options.map((o) => [o.index, o.name]));
  const summary = chart.crossovers.length
    ? chart.crossovers
        .map(
          (c) =>
            `at ${formatSize(c.bytes)} ${names.get(c.fasterAbove)} overtakes ${names.get(c.fasterBelow)}`,
        )
        .join('; ')
    : 'no crossovers: the order of the options is the same for every burst size';
  return (
    <figure className="plan-chart" aria-label="Time against burst size">
      <div className="plan-chart-canvas">
        <PlumbChart
          label={`Time to write against burst size; ${summary}.`}
          datasets={datasets}
          options={options}
        />
      </div>
      <figcaption className="muted">
        Time to write one burst, by size, at today&apos;s fill level; a line ends where its disk is
        full. Crossovers: {summary}.
      </figcaption>
      {print ? null : (
        <details className="plan-chart-data">
          <summary>The chart as a table</summary>
          <table>
            <thead>
              <tr>
                <th scope="col">Option</th>
                <th scope="col">Writes at</th>
                <th scope="col">{formatSize(chart.maxBytes)} takes</th>
              </tr>
            </thead>
            <tbody>
              {chart.series.map((series) => (
                <tr key={series.option}>
                  <th scope="row">{series.name}</th>
                  <td>{curveText(series.points)}</td>
                  <td>{takesText(series.points, chart.maxBytes)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </details>
      )}
    </figure>
  );
}
