/**
 * The files an apply (clones or Trash) skipped or could not change, each with why; those a Stop
 * kept it from are one line ("N not touched"), their list behind a disclosure.
 */
interface Outcome {
  target: string;
  status: string;
  reason: string | null;
  code: string | null;
}

export function ActionProblems({ actions }: { actions: readonly Outcome[] }) {
  const untouched = actions.filter((a) => a.status === 'skipped' && a.code === 'ECANCELED');
  const problems = actions.filter(
    (a) => (a.status === 'skipped' || a.status === 'failed') && a.code !== 'ECANCELED',
  );
  if (problems.length === 0 && untouched.length === 0) return null;
  return (
    <>
      {problems.length > 0 ? (
        <ul className="space-problems">
          {problems.map((action) => (
            <li key={action.target}>
              <span className="mono">{action.target}</span>:{' '}
              {action.status === 'failed' ? 'failed' : 'skipped'} —{' '}
              {action.reason ?? action.code ?? 'no reason given'}
            </li>
          ))}
        </ul>
      ) : null}
      {untouched.length > 0 ? (
        <details className="space-problems" data-testid="untouched">
          <summary>
            {untouched.length} not touched: the apply was stopped before{' '}
            {untouched.length === 1 ? 'this file' : 'these files'}
          </summary>
          <ul>
            {untouched.map((action) => (
              <li key={action.target} className="mono">
                {action.target}
              </li>
            ))}
          </ul>
        </details>
      ) : null}
    </>
  );
}
