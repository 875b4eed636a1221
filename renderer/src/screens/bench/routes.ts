/** Where in the results view the address points: `#/results`, `#/results/ID`, `#/results/compare/ID,ID`. */
export type ResultsRoute =
  { kind: 'list' } | { kind: 'result'; id: string } | { kind: 'compare'; ids: string[] };

export function parseResultsRoute(hash: string): ResultsRoute {
  const parts = hash.replace(/^#\/?/, '').split('/').map(decodeURIComponent);
  if (parts[1] === 'compare') {
    const ids = (parts[2] ?? '').split(',').filter(Boolean);
    return ids.length >= 2 ? { kind: 'compare', ids } : { kind: 'list' };
  }
  if (parts[1]) return { kind: 'result', id: parts[1] };
  return { kind: 'list' };
}

export function resultsHash(route: ResultsRoute): string {
  switch (route.kind) {
    case 'list':
      return '#/results';
    case 'result':
      return `#/results/${encodeURIComponent(route.id)}`;
    case 'compare':
      return `#/results/compare/${route.ids.map(encodeURIComponent).join(',')}`;
  }
}
