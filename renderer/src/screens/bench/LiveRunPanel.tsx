/** A run as it happens: progress figures that never change width, live charts, cancel. */
import { useEffect, useMemo, useState } from 'react';
import type { ResultDocument } from '../../../../app/contract/bench-result.js';
import type { PlumbClient } from '../../client.js';
import { capitalise } from '../../../../app/common/format.js';
import { quickScaleWords } from '../../../../app/common/quick-run.js';
import { planIs } from '../../../../app/common/plan-kinds.js';
import { useChartTheme } from '../../ui/charts/chart-theme.js';
import { RateChart, type RateSeries } from '../../ui/charts/RateChart.js';
import { FindingsList } from '../../ui/result/FindingsList.js';
import { gridSecondsLeft, planDirections } from './live-figures.js';
import { LiveFigures, useFrameThrottled } from './LiveFigures.js';
import { CapacityVerdict } from './CapacityVerdict.js';
import { QuickRunBanner } from './QuickRunBanner.js';
import { progressFraction, secondsLeft, type LiveRun } from './live-run.js';
import { recoveryStep } from './live-recovery.js';
import { planTitle } from '../../ui/plan-catalogue.js';
import { presetGrid } from '../../ui/result/presets-grid.js';
import { GridSourceContext, PresetsGridView } from '../../ui/result/PresetsGridView.js';
import { gridTestOf } from '../../ui/result/grid-copy.js';
import type { Plan } from '../../../../app/contract/plan.js';
import type { RunSession } from './run-store.js';
import {
  cliffMarks,
  cumulativeChartWords,
  rateByCumulative,
  rateBySize,
} from '../../ui/result/series.js';
import { ResultActions } from './ResultDetail.js';
import { Verdict } from '../../ui/result/Verdict.js';

/** Slices of the x axis a live curve is thinned to (two points each at most). */
const liveBuckets = 800;

const phaseWords: Record<LiveRun['phase'], string> = {
  starting: 'Getting ready',
  write: 'Writing',
  read: 'Reading back',
  queue: 'Queue-depth runs',
  recovery: 'Timing the recovery',
};

function statusText(live: LiveRun): string {
  switch (live.status) {
    case 'running':
      return phaseWords[live.phase];
    case 'finished':
      return 'Finished';
    case 'cancelled':
      return 'Cancelled';
    case 'failed':
      return 'Stopped';
  }
}

export function LiveRunPanel({
  client,
  session,
  onCancel,
  onDismiss,
}: {
  client: PlumbClient;
  session: RunSession;
  onCancel: () => void;
  onDismiss: () => void;
}) {
  const { live, plan } = session;
  const theme = useChartTheme();
  const [cancelling, setCancelling] = useState(false);
  const [result, setResult] = useState<ResultDocument | null>(null);
  const [resultError, setResultError] = useState<string | null>(null);

  useEffect(() => {
    if (!live.resultId) return;
    let current = true;
    client.call('results.get', { id: live.resultId }).then(
      (document) => current && setResult(document),
      (error: Error) => current && setResultError(error.message),
    );
    return () => {
      current = false;
    };
  }, [client, live.resultId]);

  // Series rebuilt when the run has moved on, at most once per animation frame: events come
  // about ten times a second, and a redraw decimates the samples (a million in a few ms).
  const drawVersion = useFrameThrottled(live.version);
  const series = useMemo(() => {
    const build = (axis: 'cumulative' | 'size'): RateSeries[] =>
      (['write', 'read'] as const)
        .map((phase) => {
          const samples = axis === 'cumulative' ? live.rates[phase] : undefined;
          return {
            label: capitalise(phase),
            color: phase === 'write' ? theme.write : theme.read,
            dashed: phase === 'read',
            line: samples !== undefined && samples.points > 0,
            samples: samples?.points,
            points: samples?.points
              ? samples.drawn(liveBuckets)
              : (axis === 'cumulative' ? rateByCumulative : rateBySize)(live.files, phase),
          };
        })
        .filter((s) => s.points.length > 0);
    return {
      cumulative: build('cumulative'),
      size: build('size'),
      time: [{ label: 'Rate', color: theme.write, points: [...live.throughput] }],
    };
  }, [drawVersion, theme]); // the arrays grow in place: drawVersion says when

  const running = live.status === 'running';
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    if (!running) return;
    const timer = setInterval(() => setNow(Date.now()), 1000);
    return () => clearInterval(timer);
  }, [running]);
  // The clock read as this renders: events render far more often than the one-second tick, and
  // a tick's time kept between them made the time left fall too fast, then jump back up at the
  // next tick (0.1 s left at 0.6 s into a quick run, 3.0 s at 1.1 s, in the first-run test).
  const clock = session.endedAtMs ?? (running ? Date.now() : now);
  const elapsed = Math.max(live.seconds, (clock - session.startedAtMs) / 1000);

  const cliffs = useMemo(() => cliffMarks(live.findings), [live.findings]);
  // The recovery is shown as its steps (a rest, a probe), each with its own share and time.
  const step = recoveryStep(live, elapsed);
  const fraction = step ? step.fraction : progressFraction(live);
  const left =
    step?.secondsLeft ??
    gridSecondsLeft(live, plan, session.request.scale) ??
    secondsLeft(
      live,
      elapsed,
      session.expected && session.workStartedAtMs !== null
        ? { expected: session.expected, working: (clock - session.workStartedAtMs) / 1000 }
        : null,
    );
  const title = planTitle(live.planName);

  if (result) {
    return (
      <div className="live-done">
        <div className="banner banner-success" role="status">
          <span>
            Finished and saved to <a href={`#/results/${encodeURIComponent(result.id)}`}>Results</a>
            .
          </span>
          <button type="button" className="button button-small" onClick={onDismiss}>
            New test
          </button>
        </div>
        <QuickRunBanner document={result} />
        <CapacityVerdict document={result} />
        {/* The saved result names what the grid tested with, for its copies. */}
        <GridSourceContext.Provider
          value={{
            volume: result.environment.volume.path,
            startedAt: result.startedAt,
            test: gridTestOf(result.plan as Plan | null),
          }}
        >
          <Verdict
            document={result}
            actions={
              <ResultActions
                client={client}
                document={result}
                onRenamed={(name) => setResult({ ...result, name })}
                onDeleted={onDismiss}
              />
            }
          />
        </GridSourceContext.Provider>
      </div>
    );
  }

  return (
    <article className="live-run" aria-label={`${title} on ${live.target}`}>
      <header className="live-header">
        <div>
          <h2 className="verdict-title">
            {title} <span className={`status-pill status-${live.status}`}>{statusText(live)}</span>
          </h2>
          <p className="verdict-meta">
            <span>{live.target}</span>
            <span>{session.request.buffered ? 'buffered' : 'uncached'}</span>
            {session.request.scale !== undefined && session.request.scale !== 1 ? (
              <span>{quickScaleWords(session.request.scale)}</span>
            ) : null}
          </p>
        </div>
        {running ? (
          <button
            type="button"
            className="button button-danger"
            disabled={cancelling}
            onClick={() => {
              setCancelling(true);
              onCancel();
            }}
          >
            {cancelling ? 'Cancelling…' : 'Cancel test'}
          </button>
        ) : (
          <button type="button" className="button" onClick={onDismiss}>
            New test
          </button>
        )}
      </header>

      {live.status === 'cancelled' ? (
        <div className="banner banner-warning" role="status">
          Cancelled. Plumb removed its test files from {live.target}; nothing was saved.
        </div>
      ) : null}
      {live.status === 'failed' ? (
        <div className="banner banner-error" role="alert">
          {live.error?.message ?? 'The test stopped.'}
        </div>
      ) : null}
      {live.status === 'finished' && !result ? (
        <p className="muted" role="status">
          {resultError ?? 'Finished. Opening the verdict…'}
        </p>
      ) : null}

      <LiveFigures live={live} plan={plan} elapsed={elapsed} left={left} step={step} />
      {step ? (
        <p className="live-step" role="status" data-testid="live-step">
          {step.text}
        </p>
      ) : null}
      <div
        className="progress-track"
        role="progressbar"
        aria-label={
          step
            ? step.kind === 'rest'
              ? 'Rest before the next probe'
              : 'Recovery probe'
            : 'Progress'
        }
        aria-valuemin={0}
        aria-valuemax={100}
        aria-valuenow={fraction === null ? undefined : Math.round(fraction * 100)}
      >
        <div
          className={`progress-fill ${fraction === null && running ? 'progress-indeterminate' : ''}`}
          style={{ width: `${fraction === null ? (running ? 100 : 0) : fraction * 100}%` }}
        />
      </div>

      {planIs(plan, 'presets') ? (
        <div className="chart-grid">
          <section className="card grid-card" aria-label="Queue-depth grid">
            <h3 className="chart-title">Queue-depth grid</h3>
            <PresetsGridView rows={presetGrid(plan.runs, live.queueRuns)} />
          </section>
          <RateChart
            title="Bytes per second over time"
            caption="Each queue-depth run in turn."
            axis="time"
            series={series.time}
            waiting="The first run is starting…"
          />
        </div>
      ) : (
        <div className="chart-grid">
          <RateChart
            {...cumulativeChartWords(planDirections(plan))}
            axis="cumulative"
            series={series.cumulative}
            cliffs={cliffs}
            waiting={
              planDirections(plan).includes('write')
                ? 'The first file is being written…'
                : 'The first file is being read…'
            }
          />
          <RateChart
            title="Rate against file size"
            caption="Small files pay fixed costs; large ones show the drive's speed."
            axis="size"
            series={series.size}
            waiting="Points appear as each file finishes."
          />
        </div>
      )}

      {live.findings.length || live.notices.length ? (
        <section className="verdict-section">
          <h3 className="section-title">So far</h3>
          <FindingsList findings={live.findings} />
          {live.notices.length ? (
            <ul className="notices">
              {live.notices.map((notice) => (
                <li key={notice}>{notice}</li>
              ))}
            </ul>
          ) : null}
        </section>
      ) : null}
    </article>
  );
}
