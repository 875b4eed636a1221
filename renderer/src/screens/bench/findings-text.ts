/** Findings as a reader meets them: a short title, the engine's sentence, and how much it matters. */
import type { Finding } from '../../../../app/contract/bench.js';
import { formatDuration } from '../../../../app/common/format.js';

export type FindingTone = 'warning' | 'caution' | 'info';

export interface FindingText {
  title: string;
  sentence: string;
  tone: FindingTone;
}

function capitalised(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}

export function describeFinding(finding: Finding): FindingText {
  const sentence = capitalised(finding.message.trim());
  switch (finding.kind) {
    case 'cliff':
    case 'throttling': {
      const title =
        finding.cause === 'thermal' || finding.kind === 'throttling'
          ? 'Thermal throttling'
          : finding.cause === 'cache'
            ? 'Write cache ran out'
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
