/**
 * The planner's refusal of a form ("Bad input for planner.evaluate: data.keepInternal: …") in the
 * form's own words: which fields to check, by the labels the user sees.
 */

const fieldNames: [RegExp, (match: RegExpExecArray) => string][] = [
  [/^data\.keepInternal$/, () => '“Must stay internal”'],
  [/^data\.movable$/, () => '“Could move out”'],
  [/^data\.internalGrowthPerYear$/, () => '“Internal growth a year”'],
  [/^data\.movableGrowthPerYear$/, () => '“Growth a year of data that can move out”'],
  [/^workload\.dailyWritesInternal$/, () => '“Daily writes, data that stays internal”'],
  [/^workload\.dailyWritesMovable$/, () => '“Daily writes, data that can move out”'],
  [/^workload\.bursts\.(\d+)\.name$/, (m) => `the name of burst ${Number(m[1]) + 1}`],
  [/^workload\.bursts\.(\d+)\.size$/, (m) => `the size of burst ${Number(m[1]) + 1}`],
  [/^workload\.bursts\.(\d+)\.repeat$/, (m) => `“Times in a row” of burst ${Number(m[1]) + 1}`],
  [/^workload\.bursts\.(\d+)\.gapSeconds$/, (m) => `the pause of burst ${Number(m[1]) + 1}`],
  [/^options\.(\d+)\.name$/, (m) => `the name of option ${Number(m[1]) + 1}`],
  [/^options\.(\d+)\.external/, (m) => `the external SSD of option ${Number(m[1]) + 1}`],
  [/^options\.(\d+)\./, (m) => `option ${Number(m[1]) + 1}`],
  [/^options$/, () => 'the options to compare'],
  [/^horizonYears$/, () => '“Years to plan for”'],
  [/^host\./, () => 'the computer and its port'],
];

const prefix = 'Bad input for planner.evaluate: ';

/** `message` itself unless it is the contract's refusal of the form's figures. */
export function plannerInputError(message: string): string {
  if (!message.startsWith(prefix)) return message;
  const names = message
    .slice(prefix.length)
    .split('; ')
    .map((issue) => issue.split(':')[0]!.trim())
    .map((path) => {
      for (const [pattern, name] of fieldNames) {
        const match = pattern.exec(path);
        if (match) return name(match);
      }
      return 'the figures';
    });
  const unique = [...new Set(names)];
  const list =
    unique.length === 1 ? unique[0]! : `${unique.slice(0, -1).join(', ')} and ${unique.at(-1)!}`;
  return `Check ${list}: a figure is missing or below zero, or a name is empty. The comparison updates once it is fixed.`;
}
