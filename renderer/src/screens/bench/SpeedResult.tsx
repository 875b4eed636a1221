/** The end of the one-button test: one big read and one big write figure, the verdict a click away. */
import { useEffect, useRef, useState } from 'react';
import type { ResultDocument } from '../../../../app/contract/bench.js';
import { formatRate } from '../../../../app/common/format.js';
import type { PlumbClient } from '../../client.js';
import { headlineRates } from './summary-table.js';

export function SpeedResult({
  client,
  resultId,
  onDismiss,
}: {
  client: PlumbClient;
  resultId: string;
  onDismiss: () => void;
}) {
  const [document, setDocument] = useState<ResultDocument | null>(null);
  const [error, setError] = useState<string | null>(null);
  const headingRef = useRef<HTMLHeadingElement | null>(null);

  useEffect(() => {
    let current = true;
    client.call('results.get', { id: resultId }).then(
      (read) => current && setDocument(read),
      (failure: Error) => current && setError(failure.message),
    );
    return () => {
      current = false;
    };
  }, [client, resultId]);

  // The figures replace the live view that had focus: the heading takes it, so it is read out.
  useEffect(() => {
    if (document) headingRef.current?.focus();
  }, [document]);

  if (!document)
    return (
      <p className={error ? 'banner banner-error' : 'muted'} role="status">
        {error ?? 'Finished. Opening the figures…'}
      </p>
    );
  const { read, write } = headlineRates(document);
  return (
    <section className="speed-result" aria-labelledby="speed-result-title">
      <h2 id="speed-result-title" className="verdict-title" tabIndex={-1} ref={headingRef}>
        Speed of {document.environment.volume.path}
      </h2>
      <div className="speed-figures">
        <div className="speed-figure">
          <span className="speed-figure-label">Write</span>
          <span className="speed-figure-value" data-testid="speed-write">
            {formatRate(write)}
          </span>
        </div>
        <div className="speed-figure">
          <span className="speed-figure-label">Read</span>
          <span className="speed-figure-value" data-testid="speed-read">
            {formatRate(read)}
          </span>
        </div>
      </div>
      <p className="muted">
        The median of {document.files.length} files written and read back uncached. Saved to
        Results.
      </p>
      <div className="speed-actions">
        <a className="button" href={`#/results/${encodeURIComponent(document.id)}`}>
          See the verdict and details
        </a>
        <button type="button" className="button button-primary" onClick={onDismiss}>
          New test
        </button>
      </div>
    </section>
  );
}
