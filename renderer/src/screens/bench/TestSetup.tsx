/** Choosing what to test: the target (a volume or a folder), the plan, its options; then start. */
import { useMemo, useState, type FormEvent } from 'react';
import type { StartBenchInput } from '../../../../app/contract/bench.js';
import type { Plan } from '../../../../app/contract/plan.js';
import type { AppAbout } from '../../../../app/contract/app.js';
import type { PlumbClient } from '../../client.js';
import { formatBytes } from '../../../../app/common/format.js';
import { planIs, planKindOf } from '../../../../app/common/plan-kinds.js';
import { parseSizeInput } from '../../../../app/common/units.js';
import { estimatePlan, ratesFromHistory, typicalRates } from './estimates.js';
import type { RunExpectation } from './live-run.js';
import { largeWriteBytes, targetWarnings, whatFits } from './target-warnings.js';
import { readPlanFile } from '../../ui/plan-catalogue.js';
import { PlanChoices, readFolderChoice } from './setup/PlanChoices.js';
import { QuickTest } from './setup/QuickTest.js';
import { gridSizeProblem } from '../../ui/result/presets-grid.js';
import { useGridPlans } from './setup/GridOptions.js';
import {
  canVerify,
  scaleLabel,
  scales,
  SetupOptions,
  type SetupChoices,
} from './setup/SetupOptions.js';
import { SetupStep } from './setup/SetupStep.js';
import { StartArea, startSummary } from './setup/StartArea.js';
import { useSetupLists, type SetupMessage } from './setup/use-setup-lists.js';
import { VolumePicker, type Target } from './VolumePicker.js';

const scaleValues = scales.map((s) => s.value);

export function TestSetup({
  client,
  about,
  historyKey,
  onStart,
}: {
  client: PlumbClient;
  about: AppAbout | null;
  /** Changes when a run ends, so the estimates read the results again. */
  historyKey: string;
  /**
   * Starts the run; `plan` is null when reading a folder; `quick` for the one-button test;
   * `expected`, what the run was announced to take and from which rates (for its time left).
   */
  onStart: (
    request: StartBenchInput,
    plan: Plan | null,
    how?: { quick?: boolean; expected?: RunExpectation | null },
  ) => Promise<void>;
}) {
  const [message, setMessage] = useState<SetupMessage | null>(null);
  const { volumes, volumesError, history, builtins } = useSetupLists(
    client,
    setMessage,
    historyKey,
  );
  const [imported, setImported] = useState<Plan[]>([]);
  const [target, setTarget] = useState<Target | null>(null);
  const [planName, setPlanName] = useState('standard');
  const [choices, setChoices] = useState<SetupChoices>({
    scale: 0.01,
    totalText: '',
    switchedOff: [],
    keepFiles: false,
    verify: false,
    buffered: false,
    pairedWith: '',
    direction: 'both',
    reserveText: '',
  });
  const [confirming, setConfirming] = useState(false);
  const [starting, setStarting] = useState(false);
  const { scale, buffered } = choices;

  const { plans, grid, setGrid } = useGridPlans(builtins, imported);
  const readFolder = planName === readFolderChoice;
  const plan = readFolder ? undefined : (plans.find((p) => p.name === planName) ?? plans[0]);
  const needsSecond =
    plan !== undefined && planKindOf(plan).options.secondFolder && choices.pairedWith.trim() === '';
  const totalBytes = choices.totalText.trim() ? parseSizeInput(choices.totalText) : undefined;
  const totalInvalid = totalBytes === null;
  const reserveBytes = choices.reserveText.trim() ? parseSizeInput(choices.reserveText) : undefined;
  const reserveInvalid = reserveBytes === null;
  const planOptions = {
    scale,
    totalBytes: totalBytes ?? undefined,
    reserveBytes: reserveBytes ?? undefined,
  };
  // A kind the scale does not apply to (a capacity check proves only what it fills) runs at full
  // size, whatever scale the other tests are set to.
  const optionsFor = (candidate: Plan) =>
    planKindOf(candidate).options.quickScale ? planOptions : { ...planOptions, scale: 1 };

  // Each test is estimated from the earlier runs of that test on the volume first.
  const ratesFor = useMemo(() => {
    if (!target) return null;
    const mounts = (volumes ?? []).map((v) => v.mountPoint).filter((m): m is string => m !== null);
    const fallback = typicalRates(target.info);
    return (planName: string | undefined) =>
      ratesFromHistory(history, target.info.mountPoint, mounts, fallback, planName);
  }, [target, volumes, history]);
  const rates = ratesFor ? ratesFor(plan?.name) : null;

  const estimateFor = (candidate: Plan) =>
    target && ratesFor
      ? estimatePlan(candidate, optionsFor(candidate), target.info, ratesFor(candidate.name))
      : null;
  const estimate = plan ? estimateFor(plan) : null;
  /** What `candidate` is announced to take, and the rates that says it, for its live time left. */
  const expectationOf = (candidate: Plan): RunExpectation | null => {
    const announced = estimateFor(candidate);
    const basis = ratesFor?.(candidate.name);
    return announced && basis
      ? { seconds: announced.seconds, rates: basis, measured: basis.guess !== true }
      : null;
  };
  const warningsFor = (candidate: Plan | undefined) => {
    const guess = candidate ? estimateFor(candidate) : null;
    return guess && target && ratesFor && candidate
      ? targetWarnings(
          guess,
          target.info,
          buffered,
          formatBytes,
          whatFits(
            candidate,
            optionsFor(candidate),
            target.info,
            ratesFor(candidate.name),
            scaleValues,
          ),
          scaleLabel,
        )
      : [];
  };
  const warnings = warningsFor(plan);
  const standard = builtins.find((p) => p.name === 'standard');
  const quickRefusal = reserveInvalid
    ? { message: 'Give the space to keep free as a size, like 2 GB.' }
    : (warningsFor(standard).find((w) => w.level === 'danger') ?? null);
  const keepFree = (bytes: number) =>
    setChoices((now) => ({ ...now, reserveText: formatBytes(bytes) }));
  const gridProblem = planIs(plan, 'presets')
    ? gridSizeProblem(plan, scale, scaleLabel(scale), formatBytes)
    : null;
  const blocked =
    !target ||
    gridProblem !== null ||
    (!plan && !readFolder) ||
    needsSecond ||
    totalInvalid ||
    reserveInvalid ||
    warnings.some((w) => w.level === 'danger');

  /** The plan as it will run: built-ins by name unless an option changed them. */
  const planToSend = (): string | Plan => {
    if (!plan) return 'standard';
    const off = planKindOf(plan).options.switches.filter(
      (option) => option.offered(plan) && choices.switchedOff.includes(option.id),
    );
    if (off.length > 0) return off.reduce((changed, option) => option.off(changed), plan);
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
      } finally {
        setStarting(false);
      }
      return;
    }
    if (!plan) return;
    if (estimate && estimate.writeBytes >= largeWriteBytes && !confirming) {
      setConfirming(true);
      return;
    }
    await launch(plan, false);
  };

  /** Starts `chosen`: the plan as set up, or the standard plan for the one-button test. */
  const launch = async (chosen: Plan, quick: boolean) => {
    if (!target) return;
    setStarting(true);
    setMessage(null);
    const options = planKindOf(chosen).options;
    const request: StartBenchInput = {
      path: target.path,
      plan: quick ? chosen.name : planToSend(),
      scale: optionsFor(chosen).scale,
      buffered,
      keepFiles: choices.keepFiles,
      ...(reserveBytes ? { reserveBytes } : {}),
      ...(options.total && totalBytes ? { totalBytes } : {}),
      ...(!quick && choices.verify && canVerify(chosen) ? { verify: true } : {}),
      ...(options.secondFolder
        ? { pairedWith: choices.pairedWith.trim(), direction: choices.direction }
        : {}),
    };
    try {
      await onStart(request, chosen, { quick, expected: expectationOf(chosen) });
    } catch (error) {
      setMessage({ tone: 'error', text: (error as Error).message });
    } finally {
      // The setup stays (hidden) while the run shows, ready for the next test as it was left.
      setStarting(false);
      setConfirming(false);
    }
  };

  const importPlan = async (file: File) => {
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
      <SetupStep id="step-where" number={1} title="Where to test">
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
          onTargetRead={(next) => setTarget((now) => (now?.path === next.path ? next : now))}
        />
      </SetupStep>

      <QuickTest
        estimate={standard ? estimateFor(standard) : null}
        scale={scale}
        refusal={target ? quickRefusal : null}
        starting={starting}
        onRun={() => standard && void launch(standard, true)}
        onKeepFree={keepFree}
      />

      <SetupStep id="step-what" number={2} title="What to measure">
        <PlanChoices
          plans={plans}
          chosenPlan={plan?.name}
          readFolder={readFolder}
          onChoose={(name) => {
            setPlanName(name);
            setConfirming(false);
          }}
          estimateFor={estimateFor}
          rates={rates}
          showBasis={estimate !== null}
          grid={grid}
          onGrid={(next) => {
            setGrid(next);
            setConfirming(false);
          }}
          scaled={scale !== 1}
          scale={scale}
          gridProblem={gridProblem}
        />
      </SetupStep>

      <SetupStep id="step-options" number={3} title="Options">
        <SetupOptions
          client={client}
          about={about}
          plan={plan}
          readFolder={readFolder}
          choices={choices}
          onChoices={(patch) => {
            setChoices((now) => ({ ...now, ...patch }));
            // A new scale changes what is written: ask again.
            if (patch.scale !== undefined) setConfirming(false);
          }}
          totalPlaceholder={estimate?.writeBytes}
          totalInvalid={totalInvalid}
          needsSecond={needsSecond}
          volumeBytes={target?.info.totalBytes ?? null}
          reserveInvalid={reserveInvalid}
          onImport={importPlan}
          onError={(text) => setMessage({ tone: 'error', text })}
        />
      </SetupStep>

      <StartArea
        warnings={warnings}
        message={message}
        summary={startSummary(target, readFolder, plan, estimate)}
        confirmBytes={confirming && estimate ? estimate.writeBytes : null}
        onNotNow={() => setConfirming(false)}
        blocked={blocked}
        starting={starting}
        onKeepFree={keepFree}
      />
    </form>
  );
}
