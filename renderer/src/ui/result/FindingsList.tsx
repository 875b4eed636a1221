import type { Finding } from '../../../../app/contract/bench-result.js';
import { findingCards } from './findings-text.js';

/**
 * The findings as cards: each leads with what was measured; the engine's reason for a cause is one
 * click away ("Why?"), and printed in full on paper, where nothing can be clicked.
 */
export function FindingsList({
  findings,
  emptyText,
  print = false,
}: {
  findings: Finding[];
  emptyText?: string;
  print?: boolean;
}) {
  if (findings.length === 0) {
    return emptyText ? (
      <p className="findings-empty" data-testid="findings-empty">
        {emptyText}
      </p>
    ) : null;
  }
  return (
    <ul className="findings" aria-label="Findings">
      {findingCards(findings).map((card) => (
        <li key={card.key} className={`finding finding-${card.tone}`}>
          <span className="finding-mark" aria-hidden="true" />
          <div>
            <strong className="finding-title">{card.title}</strong>
            <p className="finding-sentence">{card.sentence}</p>
            {card.reason && print ? (
              <p className="finding-reason">
                <span className="finding-why">Why: </span>
                {card.reason}
              </p>
            ) : null}
            {card.reason && !print ? (
              <details className="finding-reason-details">
                <summary className="finding-why">Why?</summary>
                <p className="finding-reason">{card.reason}</p>
              </details>
            ) : null}
          </div>
        </li>
      ))}
    </ul>
  );
}
