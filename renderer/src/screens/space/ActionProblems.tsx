/** The files an apply (clones or Trash) skipped or could not change, each with why. */
interface Outcome {
  target: string;
  status: string;
  reason: string | null;
  code: string | null;
}

export function ActionProblems({ actions }: { actions: readonly Outcome[] }) {
  const problems = actions.filter((a) => a.status === 'skipped' || a.status === 'failed');
  if (problems.length === 0) return null;
  return (
    <ul className="space-problems">
      {problems.map((action) => (
        <li key={action.target}>
          <span className="mono">{action.target}</span>:{' '}
          {action.status === 'failed' ? 'failed' : 'skipped'} —{' '}
          {action.reason ?? action.code ?? 'no reason given'}
        </li>
      ))}
    </ul>
  );
}
