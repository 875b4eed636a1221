/** The card shown while a space job runs: what it has seen, time left, a bar, and Cancel. */
import type { ProgressFigures } from './duplicates-view.js';

export function ProgressCard({
  title,
  path,
  figures,
  barLabel,
  bytesLabel,
  cancelLabel,
  canCancel,
  onCancel,
  testIdPrefix,
}: {
  /** "Scanning": also the card's accessible name, with the path. */
  title: string;
  path: string;
  figures: ProgressFigures;
  /** The progress bar's accessible name ("Scan progress"). */
  barLabel: string;
  /** What the bytes figure counts ("Read", "Looked at"). */
  bytesLabel: string;
  cancelLabel: string;
  canCancel: boolean;
  onCancel: () => void;
  testIdPrefix: string;
}) {
  return (
    <article className="card space-progress" aria-label={`${title} ${path}`}>
      <header className="space-progress-header">
        <div>
          <h2 className="card-title">{title}</h2>
          <span className="card-subtitle">{path}</span>
        </div>
        <button type="button" className="button" onClick={onCancel} disabled={!canCancel}>
          {cancelLabel}
        </button>
      </header>
      <div className="space-figures-row">
        <Figure label="Files" value={figures.files} testId={`${testIdPrefix}-files`} />
        <Figure label={bytesLabel} value={figures.bytes} testId={`${testIdPrefix}-bytes`} />
        <Figure label="Time left" value={figures.timeLeft} testId={`${testIdPrefix}-time-left`} />
      </div>
      <div
        className="progress-track"
        role="progressbar"
        aria-label={barLabel}
        aria-valuemin={0}
        aria-valuemax={100}
        aria-valuenow={figures.fraction === null ? undefined : Math.round(figures.fraction * 100)}
        aria-valuetext={figures.phase}
      >
        <div
          className={`progress-fill${figures.fraction === null ? ' progress-indeterminate' : ''}`}
          style={{ width: `${(figures.fraction ?? 1) * 100}%` }}
        />
      </div>
      <span className="muted">{figures.phase}…</span>
    </article>
  );
}

export function Figure({
  label,
  value,
  testId,
}: {
  label: string;
  value: string;
  testId?: string;
}) {
  return (
    <div className="space-figure">
      <span className="space-figure-label">{label}</span>
      <span className="space-figure-value" data-testid={testId}>
        {value}
      </span>
    </div>
  );
}
