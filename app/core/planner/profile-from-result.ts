/**
 * A saved benchmark result (DESIGN.md, plumb.result/1 and /2) as a planner device profile: its
 * headline rates (app/common/headline-rate.ts, the run's one figure everywhere), its cache cliff
 * (size, before and after rates: the finding's), and how long the cache took to recover when the
 * run measured it.
 */
import { z } from 'zod';
import { resultSchemaVersions } from '../../contract/bench-result.js';
import { PlumbError } from '../../contract/errors.js';
import type { DeviceProfile, InterfaceId } from '../../contract/planner.js';
import { headlineRates } from '../../common/headline-rate.js';
import { quickRunLabel, quickRunNote } from '../../common/quick-run.js';
import { withHeadline } from '../analysis/headline-rate.js';

const direction = z.enum(['write', 'read']);
const Headline = z.object({ rate: z.number().nonnegative().nullable(), basis: z.string() });

/** The fields of a results document (version 1 or 2) the planner needs; the rest is ignored. */
const ResultForProfile = z.looseObject({
  schema: z.enum(resultSchemaVersions),
  id: z.string().min(1),
  name: z.string().optional(),
  startedAt: z.string(),
  environment: z.looseObject({
    volume: z.looseObject({
      path: z.string(),
      totalBytes: z.number().nonnegative(),
      freeBytes: z.number().nonnegative(),
      bus: z.string().nullable(),
    }),
    cacheMode: z.enum(['direct', 'buffered']),
  }),
  plan: z.looseObject({ name: z.string() }),
  files: z.array(
    z.looseObject({
      phase: direction,
      bytes: z.number().nonnegative(),
      seconds: z.number().nonnegative(),
      cumulativeBytes: z.number().nonnegative(),
      target: z.enum(['a', 'b']).optional(),
      stage: z.string().optional(),
    }),
  ),
  headline: z.object({ write: Headline, read: Headline }).optional(),
  findings: z.array(z.looseObject({ kind: z.string(), phase: direction.nullable().optional() })),
  recovery: z.looseObject({ recoverySeconds: z.number().nullable() }).optional(),
});

const Cliff = z.looseObject({
  kind: z.enum(['cliff', 'throttling']),
  atBytes: z.number().positive(),
  beforeRate: z.number().positive(),
  afterRate: z.number().positive(),
  cause: z.string().optional(),
  recoverySeconds: z.number().nonnegative().nullable().optional(),
});

/** The interface a bus name points to; null when the name says nothing Plumb can use. */
export function interfaceOfBus(bus: string | null): { id: InterfaceId; internal: boolean } | null {
  if (!bus) return null;
  const name = bus.toLowerCase();
  if (/thunderbolt\s*5|\btb5\b/.test(name)) return { id: 'tb5', internal: false };
  if (/usb\s*4/.test(name)) return { id: 'usb4', internal: false };
  if (/thunderbolt|\btb3\b|\btb4\b/.test(name)) return { id: 'tb3', internal: false };
  if (/2x2/.test(name)) return { id: 'usb32g2x2', internal: false };
  if (/usb/.test(name)) return { id: 'usb32g2', internal: false };
  if (/apple fabric/.test(name)) return { id: 'apple-internal', internal: true };
  if (/sata/.test(name)) return { id: 'sata', internal: true };
  if (/nvme|pci/.test(name)) return { id: 'nvme-internal', internal: true };
  return null;
}

/** A long benchmark folder shortened to its last two parts, so the name stays readable. */
function volumeLabel(folder: string): string {
  if (folder.length <= 40) return folder;
  const parts = folder.split(/[\\/]/).filter(Boolean);
  return `…/${parts.slice(-2).join('/')}`;
}

/**
 * The name a measured profile is offered under: what was measured (the user's name for the run,
 * else its folder), when (UTC, to the minute) and with which plan, so runs on one disk differ.
 */
function measuredName(result: {
  name?: string | undefined;
  startedAt: string;
  scale?: unknown;
  plan: { name: string };
  environment: { volume: { path: string } };
}): string {
  const when = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}/.test(result.startedAt)
    ? `${result.startedAt.slice(0, 10)} ${result.startedAt.slice(11, 16)} UTC`
    : result.startedAt;
  const what = result.name ?? volumeLabel(result.environment.volume.path);
  const quick = quickRunLabel(result);
  const tail = ` · ${when} · ${result.plan.name} plan${quick ? ` · ${quick}` : ''}`;
  // The contract keeps names to 120 characters: shorten what was measured, never the date.
  return `${what.length + tail.length > 120 ? `${what.slice(0, 119 - tail.length)}…` : what}${tail}`;
}

/** The result's headline rates (stored, or by the rule for documents saved before it). */
function resultHeadlines(result: z.infer<typeof ResultForProfile>) {
  const rates = headlineRates(
    withHeadline({
      ...result,
      findings: result.findings.map((f) => ({ kind: f.kind, phase: f.phase ?? null })),
    }),
  );
  const positive = (value: number | null) => (value !== null && value > 0 ? value : null);
  return { write: positive(rates.write), read: positive(rates.read) };
}

/**
 * The profile a saved result makes. Throws EINVAL when the document is not a result, ENOWRITES
 * when it has no write headline (a read-only or grid run, or writes all under 2 MB).
 */
export function profileFromResult(resultDocument: unknown): DeviceProfile {
  const parsed = ResultForProfile.safeParse(resultDocument);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    throw new PlumbError(
      'EINVAL',
      `Not a Plumb result (${resultSchemaVersions.join(' or ')}) document: ${issue.path.map(String).join('.') || 'document'}: ${issue.message}.`,
    );
  }
  const result = parsed.data;
  const { volume } = result.environment;
  const source = `result:${result.id}`;
  const writeFindings = result.findings.filter((f) => (f.phase ?? 'write') === 'write');
  const cliff = writeFindings.map((f) => Cliff.safeParse(f)).find((p) => p.success)?.data;
  const { write: headlineWrite, read } = resultHeadlines(result);
  const written = Math.max(
    0,
    ...result.files.filter((f) => f.phase === 'write').map((f) => f.cumulativeBytes),
  );
  // With a cliff, the planner models the cache: the finding's rates in it and after it.
  const write = cliff?.beforeRate ?? headlineWrite;
  if (write === null) {
    const wrote = result.files.some((f) => f.phase === 'write');
    throw new PlumbError(
      'ENOWRITES',
      wrote
        ? `Result ${result.id} has no write file of 2 MB or more, so it has no write rate to plan with; run the standard or sustained plan.`
        : `Result ${result.id} has no write measurements, so it cannot become a planner profile; run a write benchmark.`,
    );
  }
  const recoverySeconds = cliff?.recoverySeconds ?? result.recovery?.recoverySeconds ?? null;
  const bus = interfaceOfBus(volume.bus);
  const thermal = cliff && (cliff.kind === 'throttling' || cliff.cause === 'thermal');

  const notes = [
    `Measured ${result.startedAt.slice(0, 10)} on ${volume.path} (${result.plan.name} plan).`,
    cliff
      ? `Write cliff after ${(cliff.atBytes / 1e9).toFixed(1)} GB with ${(volume.freeBytes / 1e9).toFixed(0)} GB free.`
      : `No cliff within the ${(written / 1e9).toFixed(1)} GB written.`,
  ];
  const quick = quickRunNote(result);
  if (quick) notes.push(quick);
  if (result.environment.cacheMode === 'buffered') {
    notes.push('Measured through the OS cache (buffered): rates may be optimistic.');
  }
  if (writeFindings.some((f) => f.kind === 'exceeds-interface')) {
    notes.push('Some rates exceeded the interface ceiling and were served by a cache.');
  }
  const sources: Record<string, string> = {
    capacityBytes: source,
    priceUsd: 'owned',
    writeBytesPerSecond: source,
  };
  if (read !== null) sources.readBytesPerSecond = source;
  if (cliff) {
    sources.afterCacheWriteBytesPerSecond = source;
    sources.cacheBytes = source;
  }
  if (recoverySeconds !== null) sources.cacheRecoverySeconds = source;

  return {
    id: source,
    name: measuredName(result),
    interface: bus?.id ?? 'measured',
    placement: bus?.internal ? 'internal' : 'external',
    protocol: bus?.id === 'sata' ? 'sata' : 'nvme',
    capacityBytes: volume.totalBytes,
    // A disk you measured is one you have: it costs nothing more.
    priceUsd: 0,
    readBytesPerSecond: read,
    writeBytesPerSecond: write,
    afterCacheWriteBytesPerSecond: cliff?.afterRate ?? null,
    // A cliff beyond free ÷ 3 cannot be a dynamic cache limited by free space: keep it as measured.
    cacheKind: !cliff
      ? 'none'
      : thermal
        ? 'thermal'
        : cliff.atBytes > volume.freeBytes / 3
          ? 'fixed'
          : 'dynamic-tlc',
    cacheBytes: cliff?.atBytes ?? null,
    cacheAtLeast: false,
    cacheRecoverySeconds: recoverySeconds,
    tbwBytes: null,
    sources,
    origin: 'measured',
    note: notes.join(' '),
  };
}
