/** Saved runs: the list, one run's verdict, or several compared; the address says which. */
import { useCallback, useEffect, useState } from 'react';
import type { ResultListItem } from '../../../../app/contract/bench.js';
import type { PlumbClient } from '../../client.js';
import { CompareView } from './CompareView.js';
import { ResultDetail } from './ResultDetail.js';
import { ResultsList } from './ResultsList.js';
import { parseResultsRoute, resultsHash, type ResultsRoute } from './routes.js';
import '../../ui/ui.css';
import './bench.css';

function useResultsRoute(): [ResultsRoute, (route: ResultsRoute) => void] {
  const [route, setRoute] = useState(() => parseResultsRoute(window.location.hash));
  useEffect(() => {
    const onHash = () => setRoute(parseResultsRoute(window.location.hash));
    window.addEventListener('hashchange', onHash);
    return () => window.removeEventListener('hashchange', onHash);
  }, []);
  const go = useCallback((next: ResultsRoute) => {
    window.location.hash = resultsHash(next);
  }, []);
  return [route, go];
}

export function ResultsScreen({ client }: { client: PlumbClient }) {
  const [route, go] = useResultsRoute();
  const [items, setItems] = useState<ResultListItem[] | null>(null);
  const [error, setError] = useState<string | null>(null);

  const reload = useCallback(async () => {
    try {
      const { results } = await client.call('results.list', {});
      setItems(results);
      setError(null);
    } catch (cause) {
      setError((cause as Error).message);
    }
  }, [client]);

  useEffect(() => {
    void reload();
  }, [reload, route.kind]);

  return (
    <section className="screen bench-screen" aria-labelledby="results-title">
      {route.kind === 'list' ? (
        <>
          <h1 id="results-title">Results</h1>
          <p className="lede">
            Every test you run is saved here. Open one for its verdict, or tick two or more to lay
            them over each other.
          </p>
          {error ? (
            <div className="banner banner-error" role="alert">
              {error}
            </div>
          ) : null}
          <ResultsList
            items={items}
            onOpen={(id) => go({ kind: 'result', id })}
            onCompare={(ids) => go({ kind: 'compare', ids })}
          />
        </>
      ) : (
        <h1 id="results-title" className="visually-hidden">
          Results
        </h1>
      )}
      {route.kind === 'result' ? (
        <ResultDetail
          key={route.id}
          client={client}
          id={route.id}
          onBack={() => go({ kind: 'list' })}
          onDeleted={() => {
            const deleted = route.id;
            setItems((now) => now?.filter((item) => item.id !== deleted) ?? null);
            go({ kind: 'list' });
          }}
        />
      ) : null}
      {route.kind === 'compare' ? (
        <CompareView
          client={client}
          ids={route.ids}
          onBack={() => go({ kind: 'list' })}
          onOpen={(id) => go({ kind: 'result', id })}
        />
      ) : null}
    </section>
  );
}
