/**
 * The figures of a run as it goes: one big rate per direction the plan moves data in (the one
 * going on now, the average of one that is over, what comes next), then the few facts that apply
 * to this plan. No card for a direction or a count the plan does not have.
 */
import { useEffect, useRef, useState } from 'react';
import type { Plan } from '../../../../app/contract/plan.js';
import { formatBytes, formatDuration, formatRate } from '../../../../app/common/format.js';
import { planIs } from '../../../../app/common/plan-kinds.js';
import { directionFigure, planDirections, type DirectionFigure } from './live-figures.js';
import { bytesSoFar, type LiveRun } from './live-run.js';
import type { RecoveryStep } from './live-recovery.js';
import './live.css';

const nouns = { write: 'written', read: 'read' } as const;

const stateWords: Record<DirectionFigure['state'], string> = {
  now: 'now',
  done: 'done',
  next: 'next',
};

/** A value updated at most once per animation frame: many events in a frame, one redraw. */
export function useFrameThrottled<T>(value: T): T {
  const [shown, setShown] = useState(value);
  const latest = useRef(value);
  const pending = useRef<number | null>(null);
  latest.current = value;
  useEffect(() => {
    if (pending.current !== null || Object.is(shown, value)) return;
    pending.current = window.requestAnimationFrame(() => {
      pending.current = null;
      setShown(latest.current);
    });
  }, [value, shown]);
  useEffect(
    () => () => {
      if (pending.current !== null) window.cancelAnimationFrame(pending.current);
    },
    [],
  );
  return shown;
}

function Fact({ label, value, testId }: { label: string; value: string; testId?: string }) {
  return (
    <div className="live-figure">
      <span className="live-figure-label">{label}</span>
      <span className="live-figure-value" data-testid={testId}>
        {value}
      </span>
    </div>
  );
}

export function LiveFigures({
  live,
  plan,
  elapsed,
  left,
  step,
}: {
  live: LiveRun;
  plan: Plan | null;
  elapsed: number;
  left: number | null;
  /** The recovery step going on (a rest or a probe), if the run is timing its recovery. */
  step: RecoveryStep | null;
}) {
  const running = live.status === 'running';
  const grid = planIs(plan, 'presets');
  const directions = planDirections(plan);
  const figures = directions.map((d) => directionFigure(live, plan, d));
  const queueDone = live.queueRuns.filter((q) => q.done).length;
  return (
    <>
      <div className="live-big" data-testid="live-big">
        {figures.map((f) => (
          <section
            key={f.direction}
            className={`headline live-big-card live-big-${f.state} live-big-${f.direction}`}
            aria-label={`${f.direction === 'write' ? 'Write' : 'Read'} rate, ${stateWords[f.state]}`}
          >
            <span className="headline-label live-big-label">
              {f.direction === 'write' ? 'Write' : 'Read'}
              <span className="chip live-big-state">{stateWords[f.state]}</span>
            </span>
            <span className="headline-value live-big-value" data-testid={`live-big-${f.direction}`}>
              {f.rate !== null ? formatRate(f.rate) : f.state === 'next' ? 'Up next' : 'Measuring…'}
            </span>
            <span className="headline-note live-big-note">{f.note}</span>
          </section>
        ))}
      </div>
      <div className="live-facts">
        <Fact label="Elapsed" value={formatDuration(elapsed)} testId="live-elapsed" />
        {running ? (
          <Fact
            label={step?.kind === 'rest' ? 'Rest left' : 'Time left'}
            value={
              step?.kind === 'probe'
                ? 'Until the rate is back'
                : left === null
                  ? 'Estimating…'
                  : formatDuration(left)
            }
            testId="live-left"
          />
        ) : null}
        {grid ? (
          <Fact label="Runs" value={`${queueDone} / ${plan.runs.length}`} testId="live-runs" />
        ) : (
          <Fact
            label="Files"
            value={
              live.plannedFiles
                ? `${live.filesDone} / ${live.plannedFiles}`
                : String(live.filesDone)
            }
            testId="live-files"
          />
        )}
        {grid
          ? null
          : directions
              .filter((d) => live.phase === d || (live.rates[d]?.bytesSoFar ?? 0) > 0)
              .map((d) => (
                <Fact
                  key={d}
                  label={d === 'write' ? 'Written' : 'Read'}
                  value={formatBytes(bytesSoFar(live, d))}
                  testId={`live-${nouns[d]}`}
                />
              ))}
      </div>
    </>
  );
}
