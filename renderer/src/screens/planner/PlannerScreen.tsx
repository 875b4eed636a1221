/**
 * The purchase planner: describe the computer, the data and the writes; compare a bigger internal
 * SSD with external options, from measured and published figures, each with its source.
 */
import { useCallback, useEffect, useRef, useState } from 'react';
import type {
  Catalogue,
  DeviceProfile,
  Evaluation,
  Scenario,
} from '../../../../app/contract/planner.js';
import { ExportPdfButton } from '../../report/ExportPdfButton.js';
import type { ViewProps } from '../../views.js';
import { CrossoverChart } from './CrossoverChart.js';
import { OptionCards } from './OptionCards.js';
import './planner.css';
import { Recommendation, SourcesList } from './Recommendation.js';
import { ScenarioForm } from './ScenarioForm.js';

interface Loaded {
  catalogue: Catalogue;
  measured: DeviceProfile[];
  notes: string[];
}

export function PlannerScreen({ client }: ViewProps) {
  const [loaded, setLoaded] = useState<Loaded | null>(null);
  const [scenario, setScenario] = useState<Scenario | null>(null);
  const [evaluation, setEvaluation] = useState<Evaluation | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const latest = useRef(0);

  const evaluate = useCallback(
    async (next: Scenario) => {
      const call = ++latest.current;
      setBusy(true);
      try {
        const result = await client.call('planner.evaluate', next);
        if (call !== latest.current) return;
        setEvaluation(result);
        setError(null);
      } catch (caught) {
        if (call === latest.current) setError((caught as Error).message);
      } finally {
        if (call === latest.current) setBusy(false);
      }
    },
    [client],
  );

  useEffect(() => {
    let cancelled = false;
    Promise.all([client.call('planner.catalogue', {}), client.call('planner.defaults', {})]).then(
      ([catalogue, defaults]) => {
        if (cancelled) return;
        setLoaded({ catalogue, measured: defaults.measuredDevices, notes: defaults.notes });
        setScenario(defaults.scenario);
        void evaluate(defaults.scenario);
      },
      (caught: Error) => !cancelled && setError(caught.message),
    );
    return () => {
      cancelled = true;
    };
  }, [client, evaluate]);

  // Re-plan shortly after the user stops typing; the model is cheap, the wait keeps it calm.
  const timer = useRef<number | undefined>(undefined);
  useEffect(() => () => window.clearTimeout(timer.current), []);
  const change = (next: Scenario) => {
    setScenario(next);
    window.clearTimeout(timer.current);
    timer.current = window.setTimeout(() => void evaluate(next), 350);
  };

  return (
    <section className="screen plan-screen" aria-labelledby="plan-title">
      <h1 id="plan-title">Bigger internal SSD, or external storage?</h1>
      <p className="lede">
        Describe your computer, your data and how you write it. Plumb compares what each option
        costs, how long your bursts take through each SSD&apos;s write cache, how free space and
        wear develop over the years, and says which it would buy and why.
      </p>
      {error ? (
        <div className="banner banner-error" role="alert">
          {error}
        </div>
      ) : null}
      {!loaded || !scenario ? (
        <p className="muted">Loading the catalogue…</p>
      ) : (
        <div className="plan-layout">
          <ScenarioForm
            scenario={scenario}
            catalogue={loaded.catalogue}
            measured={loaded.measured}
            busy={busy}
            onChange={change}
            onSubmit={() => void evaluate(scenario)}
          />
          {loaded.notes.length > 0 ? (
            <ul className="plan-notes muted" aria-label="About these defaults">
              {loaded.notes.map((note) => (
                <li key={note}>{note}</li>
              ))}
            </ul>
          ) : null}
          {evaluation ? (
            <div className="plan-results" aria-busy={busy}>
              <Recommendation evaluation={evaluation} />
              <h2 className="plan-section-title">The options side by side</h2>
              <OptionCards evaluation={evaluation} />
              <h2 className="plan-section-title">Time against burst size</h2>
              <CrossoverChart evaluation={evaluation} />
              <SourcesList evaluation={evaluation} />
              {scenario ? (
                <div className="plan-export">
                  <ExportPdfButton client={client} request={{ kind: 'planner', scenario }} />
                </div>
              ) : null}
            </div>
          ) : null}
        </div>
      )}
    </section>
  );
}
