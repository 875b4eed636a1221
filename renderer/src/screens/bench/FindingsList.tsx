import type { Finding } from '../../../../app/contract/bench.js';
import { findingCards } from './findings-text.js';

export function FindingsList({ findings, emptyText }: { findings: Finding[]; emptyText?: string }) {
  if (findings.length === 0) {
    return emptyText ? <p className="findings-empty">{emptyText}</p> : null;
  }
  return (
    <ul className="findings" aria-label="Findings">
      {findingCards(findings).map((card) => (
        <li key={card.key} className={`finding finding-${card.tone}`}>
          <span className="finding-mark" aria-hidden="true" />
          <div>
            <strong className="finding-title">{card.title}</strong>
            <p className="finding-sentence">{card.sentence}</p>
          </div>
        </li>
      ))}
    </ul>
  );
}
