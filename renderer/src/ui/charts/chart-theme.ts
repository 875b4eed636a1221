/** Chart colours from the app's CSS variables, so charts follow light and dark like the rest. */
import { useEffect, useState } from 'react';

export interface ChartTheme {
  scheme: 'light' | 'dark';
  text: string;
  muted: string;
  grid: string;
  surface: string;
  ceiling: string;
  cliff: string;
  /** Series colours of the two phases. */
  write: string;
  read: string;
  /** The planner's colour for each option (--plan-color-N), the same as its card's. */
  options: string[];
}

function cssVariable(name: string, fallback: string): string {
  const value = getComputedStyle(document.documentElement).getPropertyValue(name).trim();
  return value || fallback;
}

function readTheme(forced?: ChartTheme['scheme']): ChartTheme {
  const dark = forced
    ? forced === 'dark'
    : window.matchMedia('(prefers-color-scheme: dark)').matches;
  return {
    scheme: dark ? 'dark' : 'light',
    text: cssVariable('--text', dark ? '#f2f2f4' : '#1d1d1f'),
    muted: cssVariable('--muted', '#6e6e73'),
    grid: dark ? 'rgba(255, 255, 255, 0.08)' : 'rgba(0, 0, 0, 0.07)',
    surface: cssVariable('--surface', dark ? '#1f1f22' : '#ffffff'),
    ceiling: dark ? '#ff8a65' : '#c2410c',
    cliff: dark ? '#ffd36b' : '#a16207',
    write: dark ? '#5aa2ff' : '#0a64d8',
    read: dark ? '#3ddc97' : '#0f8a5f',
    options: [0, 1, 2, 3, 4, 5].map((i) =>
      cssVariable(`--plan-color-${i}`, dark ? '#5aa2ff' : '#0a64d8'),
    ),
  };
}

/** The current chart theme, updated when the OS switches between light and dark (unless forced). */
export function useChartTheme(forced?: ChartTheme['scheme']): ChartTheme {
  const [theme, setTheme] = useState(() => readTheme(forced));
  useEffect(() => {
    if (forced) return;
    const query = window.matchMedia('(prefers-color-scheme: dark)');
    const onChange = () => setTheme(readTheme());
    query.addEventListener('change', onChange);
    return () => query.removeEventListener('change', onChange);
  }, [forced]);
  return theme;
}
