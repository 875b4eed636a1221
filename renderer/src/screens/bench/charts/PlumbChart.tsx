/**
 * One chart.js line chart on a canvas, kept alive across renders: new data or options update it
 * in place without animation, so a live run redraws smoothly and the layout never jumps.
 */
import type { ChartConfiguration, ChartDataset, ChartOptions } from 'chart.js';
import { useEffect, useRef } from 'react';
import { Chart } from './register.js';

export type LineDataset = ChartDataset<'line', { x: number; y: number }[]>;

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
  const chartRef = useRef<Chart<'line', { x: number; y: number }[]> | null>(null);

  useEffect(() => {
    const canvas = canvasRef.current;
    if (!canvas) return;
    const config: ChartConfiguration<'line', { x: number; y: number }[]> = {
      type: 'line',
      data: { datasets: [] },
      options: {},
    };
    const chart = new Chart(canvas, config);
    chartRef.current = chart;
    return () => {
      chart.destroy();
      chartRef.current = null;
    };
  }, []);

  useEffect(() => {
    const chart = chartRef.current;
    if (!chart) return;
    chart.options = options;
    chart.data.datasets = datasets;
    chart.update('none');
  }, [datasets, options]);

  useEffect(() => {
    if (resetToken) chartRef.current?.resetZoom('none');
  }, [resetToken]);

  return (
    <div className={`chart-canvas ${className ?? ''}`}>
      <canvas ref={canvasRef} role="img" aria-label={label} />
    </div>
  );
}
