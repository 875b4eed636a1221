/**
 * Time against burst size for every option, with the crossovers marked: where a bigger cache over
 * a slower link overtakes a small cache over a faster one.
 */
import {
  Chart as ChartJS,
  Legend,
  LinearScale,
  LineController,
  LineElement,
  PointElement,
  Tooltip,
  type ChartData,
  type ChartOptions,
} from 'chart.js';
import { useEffect, useState } from 'react';
import { Line } from 'react-chartjs-2';
import type { Evaluation } from '../../../../app/contract/planner.js';
import { formatGbPerSecond, formatSeconds, formatSize } from '../../../../app/common/format.js';

ChartJS.register(LineController, LineElement, PointElement, LinearScale, Tooltip, Legend);

/** Re-read the theme's colours when the OS switches between light and dark. */
function useThemeColors() {
  const read = () => {
    const style = getComputedStyle(document.documentElement);
    const get = (name: string) => style.getPropertyValue(name).trim();
    return {
      text: get('--text'),
      muted: get('--muted'),
      grid: get('--border'),
      surface: get('--surface'),
      options: [0, 1, 2, 3, 4, 5].map((i) => get(`--plan-color-${i}`)),
    };
  };
  const [colors, setColors] = useState(read);
  useEffect(() => {
    const query = window.matchMedia('(prefers-color-scheme: dark)');
    const update = () => setColors(read());
    query.addEventListener('change', update);
    return () => query.removeEventListener('change', update);
  }, []);
  return colors;
}

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

/** `print`: drawn at print resolution, for a printed report. */
export function CrossoverChart({
  evaluation,
  print = false,
}: {
  evaluation: Evaluation;
  print?: boolean;
}) {
  const colors = useThemeColors();
  const { chart } = evaluation;
  const names = new Map(evaluation.options.map((o) => [o.index, o.name]));
  const data: ChartData<'line', Point[]> = {
    datasets: [
      ...chart.series.map((series) => {
        const color = colors.options[series.option % 6]!;
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
        borderColor: colors.text,
        backgroundColor: colors.surface,
        borderWidth: 2,
        pointRadius: 6,
        pointHoverRadius: 7,
        pointStyle: 'circle',
      },
    ],
  };
  const options: ChartOptions<'line'> = {
    responsive: true,
    maintainAspectRatio: false,
    animation: false,
    ...(print ? { devicePixelRatio: 3 } : {}),
    parsing: false,
    interaction: { mode: 'nearest', intersect: false },
    scales: {
      x: {
        type: 'linear',
        min: 0,
        max: chart.maxBytes / 1e9,
        title: { display: true, text: 'Burst size (GB)', color: colors.muted },
        ticks: { color: colors.muted },
        grid: { color: colors.grid },
      },
      y: {
        type: 'linear',
        min: 0,
        title: { display: true, text: 'Time to write (s)', color: colors.muted },
        ticks: { color: colors.muted },
        grid: { color: colors.grid },
      },
    },
    plugins: {
      legend: {
        position: 'bottom',
        labels: { color: colors.text, usePointStyle: true, boxHeight: 8 },
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
        <Line
          data={data}
          options={options}
          role="img"
          aria-label={`Time to write against burst size; ${summary}.`}
        />
      </div>
      <figcaption className="muted">
        Time to write one burst, by size, at today&apos;s fill level. Crossovers: {summary}.
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
                  <td>{formatSeconds(series.points[series.points.length - 1]![1])}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </details>
      )}
    </figure>
  );
}
