import type { Finding } from '../../../../app/contract/bench.js';
import { describeFinding, orderFindings } from './findings-text.js';

export function FindingsList({ findings, emptyText }: { findings: Finding[]; emptyText?: string }) {
  if (findings.length === 0) {
    return emptyText ? <p className="findings-empty">{emptyText}</p> : null;
  }
  return (
    <ul className="findings" aria-label="Findings">
      {orderFindings(findings).map((finding, index) => {
        const text = describeFinding(finding);
        return (
          <li key={`${finding.kind}-${index}`} className={`finding finding-${text.tone}`}>
            <span className="finding-mark" aria-hidden="true" />
            <div>
              <strong className="finding-title">{text.title}</strong>
              <p className="finding-sentence">{text.sentence}</p>
            </div>
          </li>
        );
      })}
    </ul>
  );
}
