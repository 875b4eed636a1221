/** Findings as a reader meets them: a short title, the engine's sentence, and how much it matters. */
import type { Finding } from '../../../../app/contract/bench.js';
import { formatBytes, formatDuration } from '../../../../app/common/format.js';

export type FindingTone = 'warning' | 'caution' | 'info';

export interface FindingText {
  title: string;
  sentence: string;
  tone: FindingTone;
}

function capitalised(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}

/** "106 write file(s) are" in words: "106 files written are", "1 file read is" ("1 file is"). */
function countsInWords(message: string, withPhase = true): string {
  return message.replace(
    /\b(\d+) (?:(write|read) )?file\(s\)( are\b)?/g,
    (_all, n: string, phase?: string, are?: string) => {
      const one = n === '1';
      const done = phase && withPhase ? ` ${phase === 'write' ? 'written' : 'read'}` : '';
      return `${n} ${one ? 'file' : 'files'}${done}${are ? (one ? ' is' : ' are') : ''}`;
    },
  );
}

export function describeFinding(finding: Finding): FindingText {
  const sentence = capitalised(countsInWords(finding.message.trim()));
  switch (finding.kind) {
    case 'cliff':
    case 'throttling': {
      const title =
        finding.cause === 'thermal' || finding.kind === 'throttling'
          ? 'Thermal throttling'
          : finding.cause === 'cache' && finding.phase === 'write'
            ? 'Write cache ran out'
            : finding.phase === 'read'
              ? 'Read speed dropped'
              : 'Speed dropped';
      const recovery =
        finding.recoverySeconds !== null && !/recover/i.test(sentence)
          ? ` It took ${formatDuration(finding.recoverySeconds)} to recover.`
          : '';
      return { title, sentence: sentence + recovery, tone: 'warning' };
    }
    case 'exceeds-interface':
      return { title: `Faster than ${finding.interface} allows`, sentence, tone: 'warning' };
    case 'bimodal':
      return { title: 'Two speeds', sentence, tone: 'caution' };
    case 'small-files':
      return { title: 'Small files', sentence, tone: 'info' };
    case 'buffered':
      return { title: 'Through the system cache', sentence, tone: 'caution' };
    case 'within-cache':
      return { title: 'Too small to pass the caches', sentence, tone: 'caution' };
    case 'unstable':
      return { title: 'Uneven timings', sentence, tone: 'caution' };
  }
}

/** Most important first: warnings, then cautions, then notes; stable within a tone. */
export function orderFindings(findings: readonly Finding[]): Finding[] {
  const rank: Record<FindingTone, number> = { warning: 0, caution: 1, info: 2 };
  return findings
    .map((finding, index) => ({ finding, index, rank: rank[describeFinding(finding).tone] }))
    .sort((a, b) => a.rank - b.rank || a.index - b.index)
    .map((entry) => entry.finding);
}

/** A finding card: one finding, or one said of both directions. */
export interface FindingCard extends FindingText {
  key: string;
}

/** The finding's sentence without its direction: "106 files are under…", "Times vary…". */
function undirected(finding: Finding): string {
  const phase = finding.phase ?? '';
  const text = countsInWords(finding.message.trim(), false).replace(
    new RegExp(`^${phase} `, 'i'),
    '',
  );
  return capitalised(text);
}

/** What a kind says of both directions when the figures differ: per kind, from its fields. */
function bothSentence(write: Finding, read: Finding): string {
  if (write.kind === 'small-files' && read.kind === 'small-files')
    return `${write.count} files written and ${read.count} read are under ${formatBytes(write.thresholdBytes)}: their rates are dominated by fixed costs and caches, not the drive's speed.`;
  if (write.kind === 'unstable' && read.kind === 'unstable')
    return `Times vary widely for files of similar size (the middle 60 % span ${Math.round(write.spread * 100)} % of the expected time writing, ${Math.round(read.spread * 100)} % reading): treat the figures as rough.`;
  return `Writing: ${undirected(write)} Reading: ${undirected(read)}`;
}

const mergeable = new Set<Finding['kind']>([
  'small-files',
  'unstable',
  'bimodal',
  'exceeds-interface',
]);

/**
 * The findings as cards, most important first: a kind found in both directions is one card
 * ("Both write and read: …"), and counts are in words.
 */
export function findingCards(findings: readonly Finding[]): FindingCard[] {
  const ordered = orderFindings(findings);
  const cards: FindingCard[] = [];
  const merged = new Set<Finding>();
  ordered.forEach((finding, index) => {
    if (merged.has(finding)) return;
    const text = describeFinding(finding);
    const other =
      finding.phase && mergeable.has(finding.kind)
        ? ordered.find(
            (f) =>
              f !== finding &&
              !merged.has(f) &&
              f.kind === finding.kind &&
              f.phase &&
              f.phase !== finding.phase,
          )
        : undefined;
    if (!other) {
      cards.push({ ...text, key: `${finding.kind}-${index}` });
      return;
    }
    merged.add(other);
    const [write, read] = finding.phase === 'write' ? [finding, other] : [other, finding];
    const same = undirected(write) === undirected(read);
    cards.push({
      ...text,
      key: `${finding.kind}-both-${index}`,
      sentence: same ? `Both write and read: ${undirected(write)}` : bothSentence(write, read),
    });
  });
  return cards;
}
