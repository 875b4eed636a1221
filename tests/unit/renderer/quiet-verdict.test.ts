/**
 * A result without findings says "steady" only when the curve its chart draws is, and claims a
 * ceiling only when it records the one its rates were checked against (issue 23: a 10 % sustained
 * run said "the rates were steady … no cache cliff" beside its chart falling from ~8 to ~0.6 GB/s,
 * and reads of 8–21 GB/s on an unknown bus were "below the interface's ceiling").
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { ResultDocument } from '../../../app/contract/bench-result.js';
import { formatRate } from '../../../app/common/format.js';
import {
  anySsdCeiling,
  interfaceCeilingById,
} from '../../../app/core/analysis/interface-ceiling.js';
import { rateCourse, quietVerdict } from '../../../renderer/src/ui/result/quiet-verdict.js';
import { cumulativeCurve } from '../../../renderer/src/ui/result/series.js';
import { modelWritePhase, type ModelWritePhase } from '../../helpers/model-write-phase.js';
import { baseSeed, seededRandom } from '../../helpers/synthetic-samples.js';
import { resultDocument } from './bench-fixtures.js';

const GB = 1e9;
const MB = 1e6;

/** A write phase of `totalBytes` in files of 200 MB on a drive at `rate` after `bytes`. */
const writePhase = (totalBytes: number, rate: (bytes: number) => number, random: () => number) =>
  modelWritePhase({ totalBytes, rate, random, fileBytes: () => 200 * MB });

function sustainedResult(
  phase: ModelWritePhase,
  environment: Partial<ResultDocument['environment']> = {},
): ResultDocument {
  const document = resultDocument('quiet', phase.files, {
    plan: { name: 'sustained' },
    samplesByPhase: { write: phase.samples },
  });
  return { ...document, environment: { ...document.environment, ...environment } };
}

describe('a result without findings', () => {
  it("says what the chart shows when the rate fell: never 'steady' or 'nothing unusual'", () => {
    // The run: about 8 GB/s into memory and the drive's cache, then 0.6 GB/s.
    const random = seededRandom(1);
    const phase = writePhase(
      6 * GB,
      (b) => 0.6 * GB + 7.4 * GB * Math.exp(-b / (0.3 * GB)),
      random,
    );
    const said = quietVerdict(sustainedResult(phase));
    assert.doesNotMatch(said, /steady|nothing unusual/i, said);
    const course = rateCourse(cumulativeCurve(sustainedResult(phase), 'write').points);
    assert.ok(course?.kind === 'fell', JSON.stringify(course));
    assert.ok(course.from > 2.5 * GB && course.to < 0.7 * GB, JSON.stringify(course));
    assert.match(
      said,
      new RegExp(
        `^No finding, but the chart shows more: the write rate fell from about ${formatRate(course.from)} to ${formatRate(course.to)} as the run went on`,
      ),
    );
  });

  it('calls a drawn curve steady only when it is, whatever the drive (random drives)', () => {
    const seed = baseSeed();
    const random = seededRandom(seed);
    const shapes = ['steady', 'fell', 'rose'] as const;
    for (let trial = 0; trial < 30; trial += 1) {
      const shape = shapes[trial % shapes.length]!;
      const level = (0.1 + random() * 6) * GB;
      const total = (1 + random() * 9) * GB;
      // A change of at least 2× over the run, at a place drawn in its middle.
      const factor = 2 + random() * 10;
      const at = total * (0.3 + 0.4 * random());
      const rate = (b: number) =>
        shape === 'steady'
          ? level
          : b < at
            ? level
            : shape === 'fell'
              ? level / factor
              : level * factor;
      const said = quietVerdict(sustainedResult(writePhase(total, rate, random)));
      const where = `seed ${seed}, trial ${trial} (${shape} from ${formatRate(level)}, ×${factor.toFixed(1)} at ${(at / GB).toFixed(2)} of ${(total / GB).toFixed(2)} GB): ${said}`;
      if (shape === 'steady')
        assert.match(said, /^Nothing unusual: the write rate held steady at about /, where);
      else {
        assert.doesNotMatch(said, /steady|nothing unusual/i, where);
        assert.match(said, new RegExp(`the write rate ${shape} from about `), where);
      }
    }
  });

  it('names the ceiling it was checked against, and says so when the bus is unknown', () => {
    const random = seededRandom(2);
    const phase = writePhase(2 * GB, () => 0.9 * GB, random);
    const usb = interfaceCeilingById('usb3-gen2')!;
    const known = quietVerdict(
      sustainedResult(phase, {
        ceiling: { id: usb.id, label: usb.label, bytesPerSecond: usb.bytesPerSecond },
      }),
    );
    assert.match(known, /No file was faster than USB 3\.2 Gen 2 carries \(1\.05 GB\/s\)\.$/);
    const ssd = {
      id: anySsdCeiling.id,
      label: anySsdCeiling.label,
      bytesPerSecond: anySsdCeiling.bytesPerSecond,
    };
    const noBus = sustainedResult(phase, { ceiling: ssd });
    const unknown = quietVerdict({
      ...noBus,
      environment: { ...noBus.environment, volume: { ...noBus.environment.volume, bus: null } },
    });
    assert.match(
      unknown,
      /The bus was not reported, so no interface ceiling applies; no file was faster than any SSD Plumb knows of \(7\.70 GB\/s\)\.$/,
    );
    assert.doesNotMatch(unknown, /below the interface/);
    assert.match(
      quietVerdict(sustainedResult(phase, { ceiling: ssd })),
      /Plumb knows no ceiling for its bus \(NVME\)/,
    );
    // A result saved before the ceiling was recorded claims none.
    assert.doesNotMatch(quietVerdict(sustainedResult(phase)), /ceiling|faster than/);
  });
});
