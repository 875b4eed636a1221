/**
 * One chart.js line chart on a canvas, kept alive across renders: new data or options update it
 * in place without animation, so a live run redraws smoothly and the layout never jumps. A chart
 * with zoom options zooms by dragging a box, by the mouse wheel over it and from the keyboard (+, -,
 * arrows, 0 to reset); the zoom stays while live data comes in, until reset.
 */
import type { ChartConfiguration, ChartDataset, ChartOptions } from 'chart.js';
import { useEffect, useMemo, useRef, type KeyboardEvent } from 'react';
import { Chart } from './register.js';

type LineChart = Chart<'line', { x: number; y: number }[]>;

/**
 * Marks the canvas with the x and y ranges shown, the plot area in CSS pixels (left, top, right,
 * bottom) and whether it is zoomed (read by tests and tools).
 */
function markRange({ chart }: { chart: Chart }) {
  const { x, y } = chart.scales;
  if (!x) return;
  chart.canvas.dataset.xRange = `${x.min}:${x.max}`;
  if (y) chart.canvas.dataset.yRange = `${y.min}:${y.max}`;
  const area = chart.chartArea;
  if (area) chart.canvas.dataset.area = [area.left, area.top, area.right, area.bottom].join(',');
  chart.canvas.dataset.zoomed = String(chart.isZoomedOrPanned());
}

/** The chart's options with box zoom on, within the data's own range. */
function withBoxZoom(options: ChartOptions<'line'>): ChartOptions<'line'> {
  const zoom = options.plugins?.zoom;
  if (!zoom) return options;
  return {
    ...options,
    plugins: {
      ...options.plugins,
      zoom: {
        ...zoom,
        zoom: {
          ...zoom.zoom,
          drag: {
            enabled: true,
            threshold: 6,
            borderWidth: 1,
            borderColor: 'rgba(61, 139, 253, 0.9)',
            backgroundColor: 'rgba(61, 139, 253, 0.15)',
            ...zoom.zoom?.drag,
          },
          // A wheel turned to zoom out of a chart that is not zoomed has nothing to do: the page
          // scrolls instead, so a chart never traps the scroll on its way past.
          onZoomStart: ({ chart, event }) =>
            !(event instanceof WheelEvent && event.deltaY > 0 && !chart.isZoomedOrPanned()),
          onZoomComplete: markRange,
        },
        pan: { ...zoom.pan, onPanComplete: markRange },
        limits: { x: { min: 'original', max: 'original' }, ...zoom.limits },
      },
    },
  };
}

const keyZoom: Record<string, number> = { '+': 1.25, '=': 1.25, '-': 0.8, _: 0.8 };

export type LineDataset = ChartDataset<'line', { x: number; y: number }[]>;

/** What every Plumb line chart sets: it fills its box, draws at once, reads {x, y} as given. */
export function lineChartBase(print: boolean): ChartOptions<'line'> {
  return {
    responsive: true,
    maintainAspectRatio: false,
    animation: false,
    // Canvases are printed as images: draw them at print resolution.
    ...(print ? { devicePixelRatio: 3 } : {}),
    parsing: false,
    interaction: { mode: 'nearest', intersect: false },
  };
}

export interface PlumbChartProps {
  /** Names the chart for screen readers; a summary in words sits beside it. */
  label: string;
  datasets: LineDataset[];
  options: ChartOptions<'line'>;
  /** Bumped to reset zoom and pan. */
  resetToken?: number;
  className?: string;
}

export function PlumbChart({ label, datasets, options, resetToken, className }: PlumbChartProps) {
  const canvasRef = useRef<HTMLCanvasElement | null>(null);
  const chartRef = useRef<LineChart | null>(null);

  useEffect(() => {
    const canvas = canvasRef.current;
    if (!canvas) return;
    const config: ChartConfiguration<'line', { x: number; y: number }[]> = {
      type: 'line',
      data: { datasets: [] },
      options: {},
      // The marks follow every layout, a resize to the chart's box included.
      plugins: [{ id: 'plumbMarks', afterUpdate: (chart) => markRange({ chart }) }],
    };
    const chart = new Chart(canvas, config);
    chartRef.current = chart;
    return () => {
      chart.destroy();
      chartRef.current = null;
    };
  }, []);

  // One options object per change of options: the zoom plugin keeps its range in it.
  const zoomable = useMemo(() => withBoxZoom(options), [options]);
  useEffect(() => {
    const chart = chartRef.current;
    if (!chart) return;
    chart.options = zoomable;
    chart.data.datasets = datasets;
    chart.update('none');
    markRange({ chart });
  }, [datasets, zoomable]);

  useEffect(() => {
    const chart = chartRef.current;
    if (!resetToken || !chart) return;
    chart.resetZoom('none');
    markRange({ chart });
  }, [resetToken]);

  const canZoom = zoomable.plugins?.zoom !== undefined;
  const onKeyDown = (event: KeyboardEvent<HTMLCanvasElement>) => {
    const chart = chartRef.current;
    if (!chart || event.ctrlKey || event.metaKey || event.altKey) return;
    const factor = keyZoom[event.key];
    const step = { ArrowLeft: 60, ArrowRight: -60 }[event.key];
    if (factor) chart.zoom(factor, 'none');
    else if (step !== undefined) chart.pan({ x: step }, undefined, 'none');
    else if (event.key === '0' || event.key === 'Escape') chart.resetZoom('none');
    else return;
    markRange({ chart });
    event.preventDefault();
  };

  return (
    <div className={`chart-canvas ${className ?? ''}`}>
      <canvas
        ref={canvasRef}
        role="img"
        aria-label={
          canZoom ? `${label} Scroll, drag a box or press + and - to zoom, 0 to reset.` : label
        }
        tabIndex={canZoom ? 0 : undefined}
        aria-keyshortcuts={canZoom ? '+ - ArrowLeft ArrowRight 0 Escape' : undefined}
        onKeyDown={canZoom ? onKeyDown : undefined}
      />
    </div>
  );
}
