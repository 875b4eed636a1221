/**
 * What a plan kind is without a disk: its words, how it shrinks for a quick run, what it writes
 * and reads on a volume and whether that fits, how long it takes, which options it takes. Each
 * kind fills one `PlanKind` (plan-kind-*.ts) registered in plan-kinds.ts, as fio's engines fill
 * `ioengine_ops`; its engine part (guard and run) is app/core/bench/plan-kind-*.ts. The engine
 * and the UI's estimate size a run with the same `size`, so both say the same before Start.
 * Pure: imports nothing.
 */
import { formatBytes, formatDuration } from './format.js';
import { scalePercent } from './quick-run.js';

/** The fields every plan has (the plan file format: app/contract/plan.ts). */
export interface PlanFields {
  kind: string;
  name: string;
  description?: string;
}

/** What a run may use on a volume, and the options that size it. */
export interface RunRoom {
  /** Bytes the run may write without crossing the reserve. */
  allowanceBytes: number;
  /** The volume's size and its free space now (a sustained run guesses its cache from them). */
  volumeBytes: number;
  availableBytes: number;
  /** The scale the plan was shrunk by (its sizes already are). */
  scale: number;
  /** A cap on what the run writes (`--total`, "Write in all", "Check at most"). */
  totalBytes?: number;
  /** Every file is read back and checked after the run (`--verify`). */
  verify: boolean;
}

/** A plan sized for a volume before it runs: what the engine runs and the estimate shows. */
export interface SizedRun<P> {
  /** The plan as it runs here (a sustained run's recovery probes sized to the room). */
  plan: P;
  /** Bytes the run writes to the disk and reads from it, at most. */
  writeBytes: number;
  readBytes: number;
  /** Most space the run holds at once. */
  spaceBytes: number;
  /** Whether the run fits in the room; when not, the engine refuses it before writing a byte. */
  fits: boolean;
  /** Transfers the run makes, for the estimate; null when it runs until a limit. */
  files: number | null;
  /** What the progress counts: bytes and file records (null when unknown before it ends). */
  progress: { bytes: number | null; files: number | null };
  /** Sentences said before the run starts (why its probes are smaller, ...). */
  notes: string[];
  /** Figures the result records beside the plan's own fields (what a run that fills wrote). */
  recorded: { totalBytes?: number; allowanceBytes?: number };
}

/** Rates and fixed costs a run's time is estimated from (an earlier run's, or typical ones). */
export interface RunRates {
  writeRate: number;
  readRate: number;
  /** Wall seconds each file costs beyond its bytes (open, flush, close, making the data). */
  writeFileSeconds: number;
  readFileSeconds: number;
  /** Seconds a run spends outside its phases (setting up, analysing, saving). */
  runSeconds: number;
  /** Wall seconds each run of a queue-depth grid costs beyond its set duration. */
  queueRunSeconds: number;
}

export interface RunTime {
  seconds: number;
  /**
   * A sustained run's checks that its cache emptied, made only after a cliff (so not in
   * `seconds`): each idles, then writes a probe. Null for runs without them.
   */
  recoveryChecks: { seconds: number; most: number } | null;
}

/** An option of a plan that the setup can turn off (sustained: time the recovery). */
export interface PlanSwitch<P> {
  id: string;
  label: string;
  offered(plan: P): boolean;
  /** The plan with it off. */
  off(plan: P): P;
}

/** The options a kind takes, on the command line and in the setup. */
export interface PlanOptions<P> {
  /** `--total`: what a cap on the bytes is called in the setup; null when the kind takes none. */
  total: { label: string; placeholder: string } | null;
  /** `--verify`: offered, always done (the kind checks every block itself), or not taken. */
  verify: 'optional' | 'always' | 'never';
  /** A second folder (`--with`, `--direction`): the kind runs on two targets. */
  secondFolder: boolean;
  /**
   * Whether the setup's scale applies: a capacity check proves only what it fills, so the setup
   * runs it at full size (the command line's --scale still shrinks it).
   */
  quickScale: boolean;
  /** The run draws or shuffles with a seed, recorded in its result so it can be repeated. */
  seeded: boolean;
  switches: readonly PlanSwitch<P>[];
}

/** A plan Plumb ships, with the words a user chooses it by. */
export interface BuiltinPlan<P> {
  /** A plumb.plan/1 plan (the contract checks it when core loads it). */
  plan: P & { schema: 'plumb.plan/1'; description: string } & Record<string, unknown>;
  title: string;
  /** What running it tells you. */
  reveals: string;
  /** Its lines under "Plans:" in `plumb bench --help`. */
  usage: readonly string[];
}

/** One kind's pure part. Methods take the kind's plan with any further fields it carries. */
export interface PlanKind<P extends PlanFields> {
  readonly kind: P['kind'];
  readonly options: PlanOptions<P>;
  readonly builtins: readonly BuiltinPlan<P>[];
  /** Which ways it moves data, for the live figures. */
  directions(plan: P): ('write' | 'read')[];
  /** What the plan does, with the sizes it holds (the stored description). */
  describe(plan: P): string;
  /** The setup's line on what it does. */
  summary(plan: P): string;
  /** Every size multiplied by `factor` (whole 4 KiB blocks, at least one); times as the kind says. */
  scaleSizes<T extends P>(plan: T, factor: number): T;
  /** The run on a volume: its bytes, whether it fits, what it says first. */
  size<T extends P>(plan: T, room: RunRoom): SizedRun<T>;
  /** How long it takes at `rates`. */
  time(run: SizedRun<P>, rates: RunRates): RunTime;
}

/** A description with the share of the full plan first, for a run at a scale below 1. */
export function atScale(scale: number, description: string): string {
  return scale < 1 ? `At ${scalePercent(scale)} of the full plan: ${description}` : description;
}

/** Seconds as set in a plan: "0.25 s", "5 s", "2 min". */
export const planSeconds = (value: number) =>
  value < 10 ? `${Number(value.toPrecision(2))} s` : formatDuration(value);

/** Sizes from one to another: "2.00 MB to 2.00 GB", or one size when both are the same. */
export const sizeRange = (low: number, high: number) =>
  low === high ? formatBytes(low) : `${formatBytes(low)} to ${formatBytes(high)}`;
