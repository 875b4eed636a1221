/** The verdict sections of the two-disk test (alone vs together) and the real-task test (disk vs memory). */
import type { PairedSection, TaskSection } from '../../../../app/contract/bench-result.js';
import { formatBytes, formatRate } from '../../../../app/common/format.js';
import { pairedVerdict, pairingName, taskVerdict, type PlainVerdict } from './verdict-sections.js';

function VerdictNote({ verdict, testId }: { verdict: PlainVerdict; testId: string }) {
  return (
    <div className={`finding finding-${verdict.tone}`} data-testid={testId}>
      <span className="finding-mark" aria-hidden="true" />
      <div>
        <strong className="finding-title">{verdict.title}</strong>
        <p className="finding-sentence">{verdict.sentence}</p>
      </div>
    </div>
  );
}

export function PairedVerdict({ section, id }: { section: PairedSection; id: string }) {
  const { a, b } = section.targets;
  return (
    <section className="verdict-section" aria-labelledby={`${id}-paired`}>
      <h3 id={`${id}-paired`} className="section-title">
        Alone and together
      </h3>
      <VerdictNote verdict={pairedVerdict(section)} testId="paired-verdict" />
      <p className="muted paired-targets">
        <span>A: {a.path}</span>
        <span>B: {b.path}</span>
        <span>{section.sameVolume ? 'one volume' : 'two volumes'}</span>
      </p>
      <table className="data-table paired-table">
        <caption className="visually-hidden">Each disk alone and together</caption>
        <thead>
          <tr>
            <th scope="col">Together</th>
            <th scope="col" className="numeric">
              A alone
            </th>
            <th scope="col" className="numeric">
              B alone
            </th>
            <th scope="col" className="numeric">
              A together
            </th>
            <th scope="col" className="numeric">
              B together
            </th>
            <th scope="col" className="numeric">
              Kept
            </th>
          </tr>
        </thead>
        <tbody>
          {section.pairings.map((p) => (
            <tr key={p.pairing}>
              <th scope="row">
                <span className="method-name">{pairingName(p.pairing)}</span>
                <span className="method-meaning">
                  {p.interferes ? 'they interfere' : 'no interference'}
                </span>
              </th>
              <td className="numeric">{formatRate(p.aloneA)}</td>
              <td className="numeric">{formatRate(p.aloneB)}</td>
              <td className="numeric">{formatRate(p.togetherA)}</td>
              <td className="numeric">{formatRate(p.togetherB)}</td>
              <td className={`numeric ${p.interferes ? 'is-low' : ''}`}>
                {Math.round(p.retained * 100)} %
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      <ul className="notices" aria-label="Each pairing in words">
        {section.pairings.map((p) => (
          <li key={p.pairing}>{p.message}</li>
        ))}
      </ul>
    </section>
  );
}

const limitNames = {
  cpu: 'Processor',
  disk: 'Disk',
  read: 'Disk reads',
  write: 'Disk writes',
} as const;

/** Which resource limits the task, and by how much (results before `limit` derive it). */
function taskLimit(task: TaskSection): { label: string; note: string } {
  const limit = task.limit ?? (task.verdict === 'cpu-bound' ? 'cpu' : (task.limitedBy ?? 'disk'));
  const load = task.diskLoad ?? null;
  if (limit === 'cpu') {
    return {
      label: limitNames.cpu,
      note:
        load === null
          ? 'the disk costs little'
          : `disk busy ${Math.round(load * 100)} % at its pace`,
    };
  }
  return {
    label: limitNames[limit],
    note: `cost ${Math.round(task.slowdown * 100)} % of the speed`,
  };
}

export function TaskVerdict({ task, id }: { task: TaskSection; id: string }) {
  const limit = taskLimit(task);
  const tiles = [
    { label: 'Limited by', value: limit.label, note: limit.note },
    { label: 'On this disk', value: formatRate(task.diskRate), note: 'input read and compressed' },
    { label: 'In memory', value: formatRate(task.memoryRate), note: 'the same work, no disk' },
    { label: 'Disk cost', value: `${Math.round(task.slowdown * 100)} %`, note: 'of the speed' },
    {
      label: 'Compression',
      value: `${task.codec} ${task.level}`,
      note: `${task.workers} threads · ${formatBytes(task.inputBytes)} to ${Math.round(task.compressionRatio * 100)} %`,
    },
  ];
  return (
    <section className="verdict-section" aria-labelledby={`${id}-task`}>
      <h3 id={`${id}-task`} className="section-title">
        Disk or processor
      </h3>
      <VerdictNote verdict={taskVerdict(task)} testId="task-verdict" />
      <div className="headline-figures task-figures">
        {tiles.map((tile) => (
          <div className="headline" key={tile.label}>
            <span className="headline-label">{tile.label}</span>
            <span
              className="headline-value"
              data-testid={`task-${tile.label.toLowerCase().replace(/\W+/g, '-')}`}
            >
              {tile.value}
            </span>
            <span className="headline-note">{tile.note}</span>
          </div>
        ))}
      </div>
    </section>
  );
}
