/** Choosing what to test: the target (a volume or a folder), the plan, its options; then start. */
import {
  useEffect,
  useId,
  useMemo,
  useRef,
  useState,
  type ChangeEvent,
  type FormEvent,
} from 'react';
import type {
  PairedDirection,
  Plan,
  ResultListItem,
  StartBenchInput,
} from '../../../../app/contract/bench.js';
import type { AppAbout } from '../../../../app/contract/app.js';
import type { MountedVolume } from '../../../../app/contract/volumes.js';
import type { PlumbClient } from '../../client.js';
import { formatBytes, formatDuration } from '../../../../app/common/format.js';
import { parseSizeInput } from '../../../../app/common/units.js';
import { saveTextFile } from './download.js';
import {
  estimatePlan,
  largeWriteBytes,
  ratesFromHistory,
  targetWarnings,
  typicalRates,
} from './estimates.js';
import { planFileText, planStory, readFolderStory, readPlanFile } from './plan-catalogue.js';
import { PairedOptions } from './PairedOptions.js';
import { VolumePicker, type Target } from './VolumePicker.js';

/** The test choice that reads a folder instead of running a plan. */
const readFolderChoice = 'read-folder';

const scales = [
  { value: 1, label: 'Full size' },
  { value: 0.1, label: 'A tenth of full size' },
  { value: 0.01, label: 'Quick (1 %)' },
] as const;

export function TestSetup({
  client,
  about,
  onStart,
}: {
  client: PlumbClient;
  about: AppAbout | null;
  /** Starts the run; `plan` is null when reading a folder. */
  onStart: (request: StartBenchInput, plan: Plan | null) => Promise<void>;
}) {
  const [volumes, setVolumes] = useState<MountedVolume[] | null>(null);
  const [volumesError, setVolumesError] = useState<string | null>(null);
  const [history, setHistory] = useState<ResultListItem[]>([]);
  const [builtins, setBuiltins] = useState<Plan[]>([]);
  const [imported, setImported] = useState<Plan[]>([]);
  const [target, setTarget] = useState<Target | null>(null);
  const [planName, setPlanName] = useState('standard');
  const [scale, setScale] = useState<number>(0.01);
  const [totalText, setTotalText] = useState('');
  const [timeRecovery, setTimeRecovery] = useState(true);
  const [keepFiles, setKeepFiles] = useState(false);
  const [buffered, setBuffered] = useState(false);
  const [pairedWith, setPairedWith] = useState('');
  const [direction, setDirection] = useState<PairedDirection>('both');
  const [confirming, setConfirming] = useState(false);
  const [starting, setStarting] = useState(false);
  const [message, setMessage] = useState<{ tone: 'error' | 'info'; text: string } | null>(null);
  const importRef = useRef<HTMLInputElement | null>(null);
  const totalId = useId();
  const scaleId = useId();

  useEffect(() => {
    client.call('volumes.list', {}).then(
      ({ volumes: list }) => setVolumes(list),
      (error: Error) => {
        setVolumes([]);
        setVolumesError(error.message);
      },
    );
    client.call('bench.plans', {}).then(
      ({ plans: list }) => setBuiltins(list),
      (error: Error) => setMessage({ tone: 'error', text: error.message }),
    );
    client.call('results.list', {}).then(
      ({ results }) => setHistory(results),
      () => setHistory([]),
    );
  }, [client]);

  const plans = useMemo(() => [...builtins, ...imported], [builtins, imported]);
  const readFolder = planName === readFolderChoice;
  const plan = readFolder ? undefined : (plans.find((p) => p.name === planName) ?? plans[0]);
  const needsSecond = plan?.kind === 'paired' && pairedWith.trim() === '';
  const totalBytes = totalText.trim() ? parseSizeInput(totalText) : undefined;
  const totalInvalid = totalBytes === null;

  const rates = useMemo(() => {
    if (!target) return null;
    const mounts = (volumes ?? []).map((v) => v.mountPoint).filter((m): m is string => m !== null);
    return ratesFromHistory(history, target.info.mountPoint, mounts, typicalRates(target.info));
  }, [target, volumes, history]);

  const estimateFor = (candidate: Plan) =>
    target && rates
      ? estimatePlan(candidate, { scale, totalBytes: totalBytes ?? undefined }, target.info, rates)
      : null;
  const estimate = plan ? estimateFor(plan) : null;
  const warnings =
    estimate && target ? targetWarnings(estimate, target.info, buffered, formatBytes) : [];
  const blocked =
    !target ||
    (!plan && !readFolder) ||
    needsSecond ||
    totalInvalid ||
    warnings.some((w) => w.level === 'danger');

  /** The plan as it will run: built-ins by name unless an option changed them. */
  const planToSend = (): string | Plan => {
    if (!plan) return 'standard';
    if (plan.kind === 'sustained' && plan.recovery && !timeRecovery)
      return { ...plan, recovery: null };
    return builtins.includes(plan) ? plan.name : plan;
  };

  const start = async (event: FormEvent) => {
    event.preventDefault();
    if (blocked || !target) return;
    if (readFolder) {
      setStarting(true);
      setMessage(null);
      try {
        await onStart({ path: target.path, plan: readFolderChoice, buffered }, null);
      } catch (error) {
        setMessage({ tone: 'error', text: (error as Error).message });
        setStarting(false);
      }
      return;
    }
    if (!plan) return;
    if (estimate && estimate.writeBytes >= largeWriteBytes && !confirming) {
      setConfirming(true);
      return;
    }
    setStarting(true);
    setMessage(null);
    const request: StartBenchInput = {
      path: target.path,
      plan: planToSend(),
      scale,
      buffered,
      keepFiles,
      ...(plan.kind === 'sustained' && totalBytes ? { totalBytes } : {}),
      ...(plan.kind === 'paired' ? { pairedWith: pairedWith.trim(), direction } : {}),
    };
    try {
      await onStart(request, plan);
    } catch (error) {
      setMessage({ tone: 'error', text: (error as Error).message });
      setStarting(false);
      setConfirming(false);
    }
  };

  const importPlan = async (event: ChangeEvent<HTMLInputElement>) => {
    const file = event.target.files?.[0];
    event.target.value = '';
    if (!file) return;
    try {
      const read = readPlanFile(await file.text());
      // A plan exported from a built-in keeps its name; told apart so both can be chosen.
      const clash = builtins.some((p) => p.name === read.name);
      const loaded = clash ? { ...read, name: `${read.name} (imported)` } : read;
      setImported((now) => [...now.filter((p) => p.name !== loaded.name), loaded]);
      setPlanName(loaded.name);
      setMessage({ tone: 'info', text: `Imported the plan "${loaded.name}".` });
    } catch (error) {
      setMessage({ tone: 'error', text: (error as Error).message });
    }
  };

  return (
    <form className="test-setup" onSubmit={(event) => void start(event)} aria-label="Set up a test">
      <section className="setup-step" aria-labelledby="step-where">
        <h2 id="step-where" className="step-title">
          <span className="step-number" aria-hidden="true">
            1
          </span>
          Where to test
        </h2>
        <VolumePicker
          client={client}
          about={about}
          volumes={volumes}
          volumesError={volumesError}
          target={target}
          onTarget={(next) => {
            setTarget(next);
            setConfirming(false);
          }}
        />
      </section>

      <section className="setup-step" aria-labelledby="step-what">
        <h2 id="step-what" className="step-title">
          <span className="step-number" aria-hidden="true">
            2
          </span>
          What to measure
        </h2>
        <div className="choice-grid plan-grid" role="radiogroup" aria-label="Test">
          {plans.map((candidate) => {
            const story = planStory(candidate);
            const candidateEstimate = estimateFor(candidate);
            return (
              <label key={candidate.name} className="choice plan-choice">
                <input
                  type="radio"
                  name="plan"
                  className="visually-hidden"
                  value={candidate.name}
                  checked={candidate.name === plan?.name}
                  onChange={() => {
                    setPlanName(candidate.name);
                    setConfirming(false);
                  }}
                />
                <span className="choice-body">
                  <span className="choice-title">{story.title}</span>
                  <span className="choice-text">{story.reveals}</span>
                  <span className="choice-detail">{story.does}</span>
                  <span
                    className={`choice-estimate ${candidateEstimate ? '' : 'choice-estimate-pending'}`}
                  >
                    {candidateEstimate && rates
                      ? `${formatBytes(candidateEstimate.writeBytes)} written · about ${formatDuration(candidateEstimate.seconds)}`
                      : 'Choose where to test for time and size'}
                  </span>
                </span>
              </label>
            );
          })}
          <label className="choice plan-choice">
            <input
              type="radio"
              name="plan"
              className="visually-hidden"
              value={readFolderChoice}
              checked={readFolder}
              onChange={() => {
                setPlanName(readFolderChoice);
                setConfirming(false);
              }}
            />
            <span className="choice-body">
              <span className="choice-title">{readFolderStory.title}</span>
              <span className="choice-text">{readFolderStory.reveals}</span>
              <span className="choice-detail">{readFolderStory.does}</span>
              <span className="choice-estimate">Nothing written · as long as the folder takes</span>
            </span>
          </label>
        </div>
        {rates && estimate ? (
          <p className="estimate-basis muted">
            Times use {formatBytes(rates.writeRate)}/s writing and {formatBytes(rates.readRate)}/s
            reading, {rates.source}.
          </p>
        ) : null}
      </section>

      <section className="setup-step" aria-labelledby="step-options">
        <h2 id="step-options" className="step-title">
          <span className="step-number" aria-hidden="true">
            3
          </span>
          Options
        </h2>
        {plan?.kind === 'paired' ? (
          <PairedOptions
            client={client}
            about={about}
            pairedWith={pairedWith}
            onPairedWith={setPairedWith}
            direction={direction}
            onDirection={setDirection}
            onError={(text) => setMessage({ tone: 'error', text })}
          />
        ) : null}
        <div className="options-row">
          {readFolder ? null : (
            <div className="option">
              <label htmlFor={scaleId}>Scale</label>
              <select
                id={scaleId}
                className="select-input"
                value={scale}
                onChange={(event) => {
                  setScale(Number(event.target.value));
                  setConfirming(false);
                }}
              >
                {scales.map((s) => (
                  <option key={s.value} value={s.value}>
                    {s.label}
                  </option>
                ))}
              </select>
            </div>
          )}
          {plan?.kind === 'sustained' ? (
            <>
              <div className="option">
                <label htmlFor={totalId}>Write in all</label>
                <input
                  id={totalId}
                  className="text-input total-input"
                  placeholder={estimate ? formatBytes(estimate.writeBytes) : 'e.g. 200 GB'}
                  value={totalText}
                  aria-invalid={totalInvalid}
                  onChange={(event) => setTotalText(event.target.value)}
                />
              </div>
              {plan.recovery ? (
                <label className="option option-check">
                  <input
                    type="checkbox"
                    checked={timeRecovery}
                    onChange={(event) => setTimeRecovery(event.target.checked)}
                  />
                  Time the recovery after a cliff
                </label>
              ) : null}
            </>
          ) : null}
          {readFolder ? null : (
            <label className="option option-check">
              <input
                type="checkbox"
                checked={keepFiles}
                onChange={(event) => setKeepFiles(event.target.checked)}
              />
              Keep the test files
            </label>
          )}
          <label className="option option-check">
            <input
              type="checkbox"
              checked={buffered}
              onChange={(event) => setBuffered(event.target.checked)}
            />
            Through the system cache (buffered)
          </label>
          <span className="options-spacer" />
          <div className="plan-file-actions">
            <button
              type="button"
              className="button button-small"
              onClick={() => importRef.current?.click()}
            >
              Import plan…
            </button>
            <input
              ref={importRef}
              type="file"
              accept="application/json,.json"
              className="visually-hidden"
              tabIndex={-1}
              aria-label="Plan file to import"
              onChange={(event) => void importPlan(event)}
            />
            <button
              type="button"
              className="button button-small"
              disabled={!plan}
              onClick={() =>
                plan &&
                saveTextFile(`${plan.name}.plumb-plan.json`, planFileText(plan), 'application/json')
              }
            >
              Export plan
            </button>
          </div>
        </div>
        {totalInvalid ? <p className="inline-error">Type a size such as 200 GB or 512MB.</p> : null}
        {needsSecond ? (
          <p className="muted option-hint">
            The two-disk test needs a second folder, on the other disk: A is where to test above.
          </p>
        ) : null}
      </section>

      <div className="start-area" aria-live="polite">
        {warnings.map((warning) => (
          <div
            key={warning.message}
            className={`banner ${warning.level === 'danger' ? 'banner-error' : 'banner-warning'}`}
          >
            {warning.message}
          </div>
        ))}
        {message ? (
          <div
            className={`banner ${message.tone === 'error' ? 'banner-error' : 'banner-info'}`}
            role={message.tone === 'error' ? 'alert' : 'status'}
          >
            {message.text}
          </div>
        ) : null}
        <div className="start-row">
          <p className="start-summary">
            {target && readFolder
              ? `${readFolderStory.title} ${target.path}: every file under it is read once, uncached; nothing is written.`
              : target && plan && estimate
                ? `${planStory(plan).title} on ${target.path}: ${formatBytes(estimate.writeBytes)} written, about ${formatDuration(estimate.seconds)}.`
                : 'Choose where to test, then a test.'}
          </p>
          {confirming && estimate ? (
            <>
              <span className="confirm-text">
                Write {formatBytes(estimate.writeBytes)} to this disk?
              </span>
              <button type="button" className="button" onClick={() => setConfirming(false)}>
                Not now
              </button>
              <button type="submit" className="button button-primary" disabled={starting}>
                Write {formatBytes(estimate.writeBytes)}
              </button>
            </>
          ) : (
            <button
              type="submit"
              className="button button-primary button-large"
              disabled={blocked || starting}
            >
              {starting ? 'Starting…' : 'Start test'}
            </button>
          )}
        </div>
      </div>
    </form>
  );
}
