import type { Evaluation } from '../../../../app/contract/planner.js';

/** `print`: the assumptions shown open, for a printed report. */
export function Recommendation({
  evaluation,
  print = false,
}: {
  evaluation: Evaluation;
  print?: boolean;
}) {
  const { recommendation } = evaluation;
  return (
    <section
      className={`card plan-recommendation${recommendation.option === null ? ' plan-recommendation-none' : ''}`}
      aria-labelledby="plan-recommendation-title"
      aria-live="polite"
    >
      <h2 id="plan-recommendation-title">{recommendation.headline}</h2>
      <ul className="plan-reasons">
        {recommendation.reasons.map((reason) => (
          <li key={reason}>{reason}</li>
        ))}
      </ul>
      <details className="plan-assumptions" open={print || undefined}>
        <summary>Assumptions ({recommendation.assumptions.length})</summary>
        <ul>
          {recommendation.assumptions.map((assumption) => (
            <li key={assumption}>{assumption}</li>
          ))}
        </ul>
      </details>
    </section>
  );
}

export function SourcesList({ evaluation }: { evaluation: Evaluation }) {
  return (
    <section className="plan-sources" aria-labelledby="plan-sources-title">
      <h2 id="plan-sources-title">Where the figures come from</h2>
      <ol>
        {evaluation.sources.map((source) => (
          <li key={source.id} id={`source-${source.id}`} title={source.id}>
            {source.title}. <span className="muted">{source.where}.</span>
          </li>
        ))}
      </ol>
    </section>
  );
}
