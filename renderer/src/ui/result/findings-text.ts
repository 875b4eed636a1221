/**
 * Findings as a reader meets them: a short title, the engine's sentence (what was measured), how
 * much it matters, and the engine's reason, where it gives one, for a second look.
 */
import type { Finding } from '../../../../app/contract/bench-result.js';
import { formatBytes, formatDuration } from '../../../../app/common/format.js';

export type FindingTone = 'warning' | 'caution' | 'info';

export interface FindingText {
  title: string;
  /** The engine's sentence: what was measured. */
  sentence: string;
  tone: FindingTone;
  /** Why the engine thinks so (a drop's cause), shown one step away; absent for other kinds. */
  reason?: string;
}

/** The engine's words as they are, but for a capital letter (results saved before said "write …"). */
function capitalised(text: string): string {
  const trimmed = text.trim();
  return trimmed.charAt(0).toUpperCase() + trimmed.slice(1);
}

export function describeFinding(finding: Finding): FindingText {
  const sentence = capitalised(finding.message);
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
        finding.recoverySeconds !== null && !sentence.toLowerCase().includes('recover')
          ? ` It took ${formatDuration(finding.recoverySeconds)} to recover.`
          : '';
      return {
        title,
        sentence: sentence + recovery,
        tone: 'warning',
        ...(finding.reason ? { reason: capitalised(finding.reason) } : {}),
      };
    }
    case 'exceeds-interface':
      return {
        title:
          finding.interface === 'any-ssd'
            ? 'Faster than any SSD'
            : 'Faster than its interface allows',
        sentence,
        tone: 'warning',
      };
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

/**
 * What a kind says of both directions: from its fields where one sentence can hold both figures,
 * else the engine's two sentences one after the other.
 */
function bothSentence(write: Finding, read: Finding): string {
  if (write.kind === 'small-files' && read.kind === 'small-files')
    return `${write.count} ${write.count === 1 ? 'file' : 'files'} written and ${read.count} read are under ${formatBytes(write.thresholdBytes)}: their rates are dominated by fixed costs and caches, not the drive's speed.`;
  if (write.kind === 'unstable' && read.kind === 'unstable')
    return `Times vary widely for files of similar size (the middle 60 % span ${Math.round(write.spread * 100)} % of the expected time writing, ${Math.round(read.spread * 100)} % reading): treat the figures as rough.`;
  return `${capitalised(write.message)} ${capitalised(read.message)}`;
}

const mergeable = new Set<Finding['kind']>([
  'small-files',
  'unstable',
  'bimodal',
  'exceeds-interface',
]);

/**
 * The findings as cards, most important first: a kind found in both directions is one card with
 * both figures.
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
    cards.push({
      ...text,
      key: `${finding.kind}-both-${index}`,
      sentence: bothSentence(write, read),
    });
  });
  return cards;
}
