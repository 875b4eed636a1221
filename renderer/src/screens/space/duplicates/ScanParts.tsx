/** What the duplicates view says around its table: first steps, the scan, totals, what changed. */
import type {
  DedupeReport,
  DuplicateGroup,
  ScanResult,
} from '../../../../../app/contract/space.js';
import { formatBytes, formatDuration } from '../../../../../app/common/format.js';
import { ActionProblems } from '../ActionProblems.js';
import { alreadySharedCode } from '../../../../../app/common/space-codes.js';
import {
  alreadySharing,
  freedComparison,
  methodNames,
  plannedTotals,
  scanAge,
  skippedOrFailed,
  totalLines,
  type PlanFrees,
} from '../duplicates-view.js';
import { Figure } from '../ProgressCard.js';

export function FirstSteps() {
  return (
    <div className="empty-panel space-empty">
      <h2 className="empty-title">Find copies that could share storage</h2>
      <ol className="empty-steps">
        <li>Type a folder above — your home folder is a good start — and press Scan.</li>
        <li>
          Plumb lists identical files and how much turning the copies into clones would really free.
          Copies that are already clones count for nothing.
        </li>
        <li>
          Tick the groups you want, review exactly what will happen, and confirm. On a disk that can
          clone, no file is deleted: each copy keeps its name, content and metadata. On one that
          cannot, the copies move to the Trash, where you can still put them back.
        </li>
      </ol>
      <p className="muted">Scanning only reads: nothing changes until you confirm.</p>
    </div>
  );
}

export function ScanSummary({
  result,
  savedAt,
  onRescan,
}: {
  result: ScanResult;
  savedAt?: string;
  onRescan: () => void;
}) {
  const skipped = result.skipped;
  const skippedParts = [
    skipped.symlinks ? `${skipped.symlinks} symbolic links` : null,
    skipped.extraHardLinks ? `${skipped.extraHardLinks} extra hard links (counted once)` : null,
    skipped.otherVolumes ? `${skipped.otherVolumes} items on other volumes` : null,
    skipped.excluded ? `${skipped.excluded} excluded (packages, cloud folders)` : null,
    skipped.unreadable ? `${skipped.unreadable} unreadable` : null,
  ].filter(Boolean);
  return (
    <p className="space-scan-summary muted" data-testid="scan-summary">
      Scanned <span className="mono">{result.root}</span>
      {result.fsType ? ` (${result.fsType})` : ''}: {result.files.toLocaleString('en-US')} files,{' '}
      {formatBytes(result.bytes)} in {formatDuration(result.seconds)}.
      {skippedParts.length ? ` Skipped ${skippedParts.join(', ')}.` : ''}
      {savedAt ? (
        <span className="space-scan-age" data-testid="scan-age">
          {' '}
          Kept from a scan {scanAge(savedAt)}; files changed since then are skipped when you act.{' '}
          <button type="button" className="button" onClick={onRescan}>
            Scan again
          </button>
        </span>
      ) : null}
    </p>
  );
}

/** The three totals: of the groups shown, or of the whole scan when no filter leaves any out. */
export function Totals({
  result,
  groups,
  planFrees,
  scanTotal,
}: {
  result: ScanResult;
  groups: readonly DuplicateGroup[];
  /** What acting on each group frees, as the dry run counts it (null until known). */
  planFrees: PlanFrees | null;
  /** Whether `groups` are every group loaded, but not all of the scan's (a page at a time). */
  scanTotal: boolean;
}) {
  return (
    <section className="space-totals" aria-label="Totals">
      {totalLines(
        plannedTotals(result.totals, result.groups, planFrees),
        result.sharingSupported,
        groups,
        planFrees,
        scanTotal,
      ).map((line) => (
        <article
          key={line.id}
          className={`space-total space-total-${line.id} is-${line.tone}`}
          aria-labelledby={`total-${line.id}`}
        >
          <span className="space-figure-label" id={`total-${line.id}`}>
            {line.label}
          </span>
          <span className="space-total-value" data-testid={`total-${line.id}`}>
            {line.value}
          </span>
          <p className="space-total-text">{line.explanation}</p>
        </article>
      ))}
    </section>
  );
}

export function AppliedSummary({ report }: { report: DedupeReport }) {
  const comparison = freedComparison(report);
  const shared = alreadySharing(report);
  return (
    <article className="card space-applied" aria-label="What changed">
      <header className="card-header">
        <h2 className="card-title">Done: copies replaced with clones</h2>
        <span className="card-subtitle">{methodNames[report.method]}</span>
      </header>
      <div className="space-figures-row">
        <Figure label="Predicted" value={comparison.predicted} testId="applied-predicted" />
        <Figure label="Measured freed" value={comparison.measured} testId="applied-measured" />
        <Figure label="Files changed" value={String(report.counts.done)} testId="applied-done" />
        {shared ? (
          <Figure label="Already sharing storage" value={String(shared)} testId="applied-shared" />
        ) : null}
        <Figure
          label="Skipped or failed"
          value={String(skippedOrFailed(report))}
          testId="applied-skipped"
        />
      </div>
      <p className="space-applied-text">{comparison.sentence}</p>
      <ActionProblems actions={report.actions.filter((a) => a.code !== alreadySharedCode)} />
    </article>
  );
}
