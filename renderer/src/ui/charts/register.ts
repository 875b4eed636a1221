/** The parts of chart.js the benchmark charts use, registered once (tree-shaking keeps the rest out). */
import {
  Chart,
  Decimation,
  Legend,
  LinearScale,
  LineController,
  LineElement,
  LogarithmicScale,
  PointElement,
  Tooltip,
} from 'chart.js';
import annotationPlugin from 'chartjs-plugin-annotation';
import zoomPlugin from 'chartjs-plugin-zoom';

Chart.register(
  LineController,
  LineElement,
  PointElement,
  LinearScale,
  LogarithmicScale,
  Tooltip,
  Legend,
  Decimation,
  annotationPlugin,
  zoomPlugin,
);
// Live charts redraw several times a second: animation would only lag behind the data.
Chart.defaults.animation = false;

export { Chart };
