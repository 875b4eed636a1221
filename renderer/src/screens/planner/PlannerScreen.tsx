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
import type { PlumbClient } from '../../client.js';
import { ExportPdfButton } from '../../report/ExportPdfButton.js';
import { CrossoverChart } from '../../ui/planner/CrossoverChart.js';
import { keepDraft, readDraft } from './draft.js';
import { MyDevices } from './MyDevices.js';
import { plannerInputError } from './input-errors.js';
import { OptionCards } from '../../ui/planner/OptionCards.js';
import '../../ui/planner/planner.css';
import './planner.css';
import { Recommendation, SourcesList } from '../../ui/planner/Recommendation.js';
import { ScenarioFiles } from './ScenarioFiles.js';
import { ScenarioForm } from './ScenarioForm.js';

interface Loaded {
  catalogue: Catalogue;
  measured: DeviceProfile[];
  notes: string[];
}

export function PlannerScreen({ client }: { client: PlumbClient }) {
  const [loaded, setLoaded] = useState<Loaded | null>(null);
  const [scenario, setScenario] = useState<Scenario | null>(null);
  const [evaluation, setEvaluation] = useState<Evaluation | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [own, setOwn] = useState<DeviceProfile[]>([]);
  const [ownStatus, setOwnStatus] = useState<string | null>(null);
  const latest = useRef(0);
  const [currentId, setCurrentId] = useState<string | null>(null);
  // The scenario as last saved or opened: what differs from it is an unsaved edit.
  const [base, setBase] = useState<string | null>(null);
  const dirty = scenario !== null && base !== null && JSON.stringify(scenario) !== base;
  // The user's own SSDs travel in every scenario Plumb evaluates, saves or prints; an opened file's
  // own devices stay with it unless one saved here has the same id.
  const ownRef = useRef<DeviceProfile[]>([]);
  const withOwn = (next: Scenario): Scenario => {
    const ids = new Set(ownRef.current.map((d) => d.id));
    return { ...next, devices: [...ownRef.current, ...next.devices.filter((d) => !ids.has(d.id))] };
  };

  // withOwn reads only the ref, so the callback need not change with it.
  const evaluate = useCallback(
    async (next: Scenario) => {
      const call = ++latest.current;
      setBusy(true);
      try {
        const result = await client.call('planner.evaluate', withOwn(next));
        if (call !== latest.current) return;
        setEvaluation(result);
        setError(null);
      } catch (caught) {
        if (call === latest.current) setError(plannerInputError((caught as Error).message));
      } finally {
        if (call === latest.current) setBusy(false);
      }
    },
    [client],
  );

  useEffect(() => {
    let cancelled = false;
    // A damaged file of saved SSDs must not keep the planner from opening: say so, start empty.
    const ownDevices = client.call('planner.devices.list', {}).then(
      (reply) => ({ devices: reply.devices, problem: null }),
      (caught: Error) => ({ devices: [] as DeviceProfile[], problem: caught.message }),
    );
    Promise.all([
      client.call('planner.catalogue', {}),
      client.call('planner.defaults', {}),
      ownDevices,
    ]).then(
      ([catalogue, defaults, saved]) => {
        if (cancelled) return;
        ownRef.current = saved.devices;
        setOwn(saved.devices);
        const draft = readDraft();
        const notes = saved.problem ? [...defaults.notes, saved.problem] : defaults.notes;
        setLoaded({
          catalogue,
          measured: defaults.measuredDevices,
          notes: draft
            ? [
                `Your unsaved changes to "${draft.scenario.name}" from last time are back: Save keeps them, opening another scenario leaves them.`,
                ...notes,
              ]
            : notes,
        });
        const start = draft?.scenario ?? defaults.scenario;
        setScenario(start);
        setCurrentId(draft?.currentId ?? null);
        setBase(draft?.base ?? JSON.stringify(defaults.scenario));
        void evaluate(start);
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

  // Unsaved edits are kept as they are made, so a reload or a closed window loses none.
  useEffect(() => {
    if (scenario === null || base === null) return;
    keepDraft(dirty ? { scenario, currentId, base } : null);
  }, [scenario, currentId, base, dirty]);

  const opened = (next: Scenario, id: string | null) => {
    setCurrentId(id);
    setBase(JSON.stringify(next));
    setScenario(next);
    window.clearTimeout(timer.current);
    void evaluate(next);
  };

  const ownChanged = (devices: DeviceProfile[], next: Scenario, status: string) => {
    ownRef.current = devices;
    setOwn(devices);
    setOwnStatus(status);
    setScenario(next);
    window.clearTimeout(timer.current);
    void evaluate(next);
  };
  const saveOwn = async (device: DeviceProfile) => {
    const reply = await client.call('planner.devices.save', { device });
    const edited = ownRef.current.some((d) => d.id === device.id);
    ownChanged(
      reply.devices,
      scenario!,
      `${edited ? 'Saved changes to' : 'Saved'} ${reply.device.name}.`,
    );
  };
  const deleteOwn = async (device: DeviceProfile) => {
    const reply = await client.call('planner.devices.delete', { id: device.id });
    // Options that used it lose it: the external SSD, or the internal one they would fit.
    const uses = (o: Scenario['options'][number]) =>
      o.external?.device === device.id || o.internalDevice === device.id;
    const affected = scenario!.options.flatMap((o, i) => (uses(o) ? [i + 1] : []));
    const next = {
      ...scenario!,
      options: scenario!.options.map((o) =>
        uses(o)
          ? {
              ...o,
              external: o.external?.device === device.id ? undefined : o.external,
              internalDevice: o.internalDevice === device.id ? undefined : o.internalDevice,
            }
          : o,
      ),
    };
    const now = device.placement === 'internal' ? 'a typical internal SSD' : 'no external SSD';
    ownChanged(
      reply.devices,
      next,
      `Deleted ${device.name}.${affected.length ? ` Option ${affected.join(' and ')} now ${affected.length > 1 ? 'have' : 'has'} ${now}.` : ''}`,
    );
  };
  const compareOwn =
    scenario && scenario.options.length < 6
      ? (device: DeviceProfile) => {
          // The smallest internal disk of the options: an external SSD is bought to keep it small.
          const first = scenario.options.reduce((smallest, o) =>
            o.internalCapacity < smallest.internalCapacity ? o : smallest,
          );
          // An SSD to fit inside is the internal disk of the new option, at its own price.
          const option: Scenario['options'][number] =
            device.placement === 'internal'
              ? { internalCapacity: device.capacityBytes, internalDevice: device.id }
              : {
                  internalCapacity: first.internalCapacity,
                  ...(first.internalUpgradeUsd === undefined
                    ? {}
                    : { internalUpgradeUsd: first.internalUpgradeUsd }),
                  ...(first.internalDevice ? { internalDevice: first.internalDevice } : {}),
                  external: { device: device.id },
                };
          ownChanged(
            ownRef.current,
            { ...scenario, options: [...scenario.options, option] },
            `Added an option with ${device.name}.`,
          );
        }
      : null;

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
          <ScenarioFiles
            client={client}
            scenario={withOwn(scenario)}
            currentId={currentId}
            dirty={dirty}
            onOpen={opened}
            onSaved={(id) => {
              setCurrentId(id);
              setBase(JSON.stringify(scenario));
            }}
            onRename={(name) => change({ ...scenario, name })}
          />
          <ScenarioForm
            scenario={scenario}
            catalogue={loaded.catalogue}
            measured={loaded.measured}
            own={own}
            missing={evaluation?.options.flatMap((o) => o.missingPrices) ?? []}
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
          <MyDevices
            devices={own}
            onSave={saveOwn}
            onDelete={deleteOwn}
            onUse={compareOwn}
            status={ownStatus}
          />
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
                  <ExportPdfButton
                    client={client}
                    request={{ kind: 'planner', scenario: withOwn(scenario) }}
                  />
                </div>
              ) : null}
            </div>
          ) : null}
        </div>
      )}
    </section>
  );
}
