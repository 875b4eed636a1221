/**
 * Scenario files: JSON checked against the contract's schema, with one-line errors that name the
 * field and say what to write instead.
 */
import { readInputFile } from '../input-file.js';
import type { z } from 'zod';
import { PlumbError } from '../../contract/errors.js';
import { Scenario } from '../../contract/planner.js';

type Issue = z.core.$ZodIssue;

/** The most useful sentence for one zod issue: unions report the branch that came closest. */
function describeIssue(issue: Issue): { path: PropertyKey[]; message: string } {
  if (issue.code === 'invalid_union' && issue.errors.length > 0) {
    const branches = issue.errors.map((branch) => branch[0]).filter((i): i is Issue => !!i);
    const closest = branches.find((i) => i.code !== 'invalid_type') ?? branches[0];
    if (closest) {
      const inner = describeIssue(closest);
      return { path: [...issue.path, ...inner.path], message: inner.message };
    }
  }
  if (issue.code === 'invalid_type' && /received undefined/.test(issue.message)) {
    return { path: issue.path, message: `is required (${issue.expected})` };
  }
  if (issue.code === 'unrecognized_keys') {
    return {
      path: issue.path,
      message: `unknown field${issue.keys.length > 1 ? 's' : ''} ${issue.keys.map((k) => `"${k}"`).join(', ')}; check the spelling against examples/scenarios`,
    };
  }
  return { path: issue.path, message: issue.message };
}

/** A parsed scenario, or a PlumbError (EINVAL) whose message names the first bad field. */
export function parseScenario(data: unknown, label = 'scenario'): Scenario {
  const parsed = Scenario.safeParse(data);
  if (parsed.success) return parsed.data;
  const issues = parsed.error.issues.map(describeIssue);
  const first = issues[0]!;
  const where = first.path.map(String).join('.');
  const more = issues.length > 1 ? ` (and ${issues.length - 1} more)` : '';
  throw new PlumbError('EINVAL', `${label}: ${where ? `${where}: ` : ''}${first.message}${more}.`);
}

/** A scenario file's text checked: JSON, then the schema; `label` names it in errors. */
export function parseScenarioText(text: string, label: string): Scenario {
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch (error) {
    throw new PlumbError(
      'EINVAL',
      `${label} is not valid JSON (${(error as Error).message}); see examples/scenarios for the format.`,
      { cause: error },
    );
  }
  return parseScenario(data, label);
}

/** Reads and checks a scenario file. */
export async function loadScenarioFile(file: string): Promise<Scenario> {
  let text: string;
  try {
    text = await readInputFile(file);
  } catch (error) {
    if (error instanceof PlumbError) throw error;
    const code = (error as NodeJS.ErrnoException).code;
    const reason = code === 'ENOENT' ? 'no such file' : (error as Error).message;
    throw new PlumbError(code ?? 'EIO', `Cannot read the scenario ${file}: ${reason}.`, {
      cause: error,
    });
  }
  return parseScenarioText(text, file);
}

/**
 * A scenario as the file `plumb plan` reads: the schema's own fields, with the user's devices
 * that its options name (so the file plans the same on another computer) and no others.
 */
export function scenarioText(scenario: Scenario): string {
  const named = new Set(scenario.options.flatMap((o) => [o.internalDevice, o.external?.device]));
  const document: Scenario = {
    ...scenario,
    devices: scenario.devices.filter((d) => named.has(d.id)),
  };
  return `${JSON.stringify(document, null, 2)}\n`;
}
