import { resultCsv } from '../../core/bench/results-store.js';
import { formatRate } from '../../common/format.js';
import { capacityCheckLabel } from '../../common/capacity-check.js';
import { quickRunLabel } from '../../common/quick-run.js';
import { parseCommandArgs } from '../args.js';
import { describeResult } from '../bench/summary.js';
import { exitCode, UsageError, type Command } from '../command.js';

const usage = [
  'plumb results list [--json]',
  '       plumb results show ID [--json]',
  '       plumb results export ID --csv',
  '       plumb results rename ID NAME',
  '       plumb results delete ID',
  '',
  'ID may be any unique beginning of a result id.',
].join('\n');

export const resultsCommand: Command = {
  name: 'results',
  usage,
  async run(args, io) {
    const { values, positionals } = parseCommandArgs(
      args,
      { json: { type: 'boolean' }, csv: { type: 'boolean' } },
      'results',
    );
    if (values.help) {
      io.stdout.write(`Usage: ${this.usage}\n`);
      return exitCode.ok;
    }
    const [action, id, ...rest] = positionals;
    const store = (await io.context()).results;
    const needId = () => {
      if (!id) throw new UsageError(`Give a result id: plumb results ${action} ID`);
      return id;
    };
    switch (action) {
      case 'list': {
        const items = await store.list();
        if (values.json) {
          io.stdout.write(`${JSON.stringify(items, null, 2)}\n`);
        } else if (items.length === 0) {
          io.stdout.write(`No results in ${store.dir}.\n`);
        } else {
          for (const item of items) {
            const rates = [
              item.writeMedian === null ? null : `write ${formatRate(item.writeMedian)}`,
              item.readMedian === null ? null : `read ${formatRate(item.readMedian)}`,
            ].filter(Boolean);
            const quick = quickRunLabel({ scale: item.scale, plan: {} });
            const capacity = capacityCheckLabel(item.capacityCheck);
            io.stdout.write(
              `${item.id}  ${item.startedAt.slice(0, 19).replace('T', ' ')}  ${item.plan.padEnd(10)}  ${item.volumePath}  ${rates.join(', ')}${quick ? `  (${quick})` : ''}${capacity ? `  (${capacity})` : ''}${item.name ? `  "${item.name}"` : ''}${item.findings.length ? `  [${[...new Set(item.findings)].join(', ')}]` : ''}\n`,
            );
          }
        }
        return exitCode.ok;
      }
      case 'show': {
        const document = await store.get(needId());
        io.stdout.write(
          values.json ? `${JSON.stringify(document, null, 2)}\n` : describeResult(document),
        );
        return exitCode.ok;
      }
      case 'export': {
        if (!values.csv) throw new UsageError('Say the format: plumb results export ID --csv');
        io.stdout.write(resultCsv(await store.get(needId())));
        return exitCode.ok;
      }
      case 'rename': {
        const name = rest.join(' ').trim();
        if (!name) throw new UsageError('Give a name: plumb results rename ID NAME');
        const item = await store.rename(needId(), name);
        io.stdout.write(`Renamed ${item.id} to "${name}".\n`);
        return exitCode.ok;
      }
      case 'delete': {
        const resolved = await store.resolveId(needId());
        await store.delete(resolved);
        io.stdout.write(`Deleted ${resolved}.\n`);
        return exitCode.ok;
      }
      default:
        throw new UsageError(
          `Unknown action "${action ?? ''}": use list, show, export, rename or delete.`,
        );
    }
  },
};
