/** The end of the one-button test: one big read and one big write figure, the verdict a click away. */
import { useEffect, useRef, useState } from 'react';
import type { ResultDocument } from '../../../../app/contract/bench-result.js';
import { formatRate } from '../../../../app/common/format.js';
import { headline } from '../../../../app/common/headline-rate.js';
import type { PlumbClient } from '../../client.js';
import { QuickRunBanner } from './QuickRunBanner.js';
import { describeFinding } from '../../ui/result/findings-text.js';
import { headlineRates } from '../../../../app/common/headline-rate.js';

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
  const bases = [...new Set((['write', 'read'] as const).map((d) => headline(document, d).basis))];
  // A run that stayed within a cache says so beside its figures, not only on the verdict page.
  const cached = document.findings.find((f) => f.kind === 'within-cache');
  const caveat = cached ? describeFinding(cached) : null;
  return (
    <section className="speed-result" aria-labelledby="speed-result-title">
      <h2 id="speed-result-title" className="verdict-title" tabIndex={-1} ref={headingRef}>
        Speed of {document.environment.volume.path}
      </h2>
      <QuickRunBanner document={document} />
      <div className="speed-figures">
        {(
          [
            ['Write', write],
            ['Read', read],
          ] as const
        ).map(([label, rate]) => (
          <div className="speed-figure" key={label}>
            <span className="speed-figure-label">{label}</span>
            <span className="speed-figure-value" data-testid={`speed-${label.toLowerCase()}`}>
              {formatRate(rate)}
            </span>
          </div>
        ))}
      </div>
      <p className="muted">
        {document.files.filter((f) => f.phase === 'write').length} files written, then read back{' '}
        {document.environment.cacheMode === 'direct' ? 'uncached' : 'through the cache'}; each
        figure is the run's headline ({bases.join('; ')}). Saved to Results.
      </p>
      {caveat ? (
        <p className="banner banner-warning" data-testid="speed-caveat">
          <strong>{caveat.title}.</strong> {caveat.sentence}
        </p>
      ) : null}
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
