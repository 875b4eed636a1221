/** The compare screen: two or more results on the same charts, with their headline figures. */
import { useEffect, useState } from 'react';
import type { ResultDocument } from '../../../../app/contract/bench-result.js';
import type { PlumbClient } from '../../client.js';
import { ExportPdfButton } from '../../report/ExportPdfButton.js';
import { ComparisonCharts, ComparisonTable } from '../../ui/result/Comparison.js';

export function CompareView({
  client,
  ids,
  onBack,
  onOpen,
}: {
  client: PlumbClient;
  ids: string[];
  onBack: () => void;
  onOpen: (id: string) => void;
}) {
  const [documents, setDocuments] = useState<ResultDocument[] | null>(null);
  const [error, setError] = useState<string | null>(null);
  const key = ids.join(',');

  useEffect(() => {
    let live = true;
    Promise.all(key.split(',').map((id) => client.call('results.get', { id }))).then(
      (loaded) => live && setDocuments(loaded),
      (cause: Error) => live && setError(cause.message),
    );
    return () => {
      live = false;
    };
  }, [client, key]);

  return (
    <div className="compare-view">
      <button type="button" className="back-link" onClick={onBack}>
        ← All results
      </button>
      <h2 className="verdict-title">Comparing {ids.length} results</h2>
      <div className="action-bar">
        <ExportPdfButton client={client} request={{ kind: 'comparison', ids }} />
      </div>
      <p className="lede">
        Circles are writes, diamonds reads; each result keeps its colour. The first result is the
        baseline. Write and read are each run's headline rate: the steady rate of its files of 2 MB
        or more, or their bytes over their seconds (each result page says which).
      </p>
      {error ? (
        <div className="banner banner-error" role="alert">
          {error}
        </div>
      ) : null}
      {documents ? (
        <>
          <ComparisonTable documents={documents} onOpen={onOpen} />
          <ComparisonCharts documents={documents} />
        </>
      ) : !error ? (
        <p className="muted">Opening the results…</p>
      ) : null}
    </div>
  );
}
