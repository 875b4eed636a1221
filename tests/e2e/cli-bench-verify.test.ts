/**
 * `plumb bench --verify` on disks whose lies are known: a fake-capacity disk (wrapfs: offsets
 * beyond its real size wrap to the start), bytes changed in a loop image behind ext4's back, and a
 * good disk. The expected first bad place is worked out from where ext4 put each block (FIEMAP).
 */
import assert from 'node:assert/strict';
import { randomInt } from 'node:crypto';
import { openSync, readSync, statSync, writeSync, closeSync } from 'node:fs';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { execFileSync } from 'node:child_process';
import { formatBytes } from '../../app/common/format.js';
import { type BenchEvent } from '../../app/contract/bench-events.js';
import { ResultDocument } from '../../app/contract/bench-result.js';
import { builtinPlan } from '../../app/core/bench/builtin-plans.js';
import { nativeBenchIO } from '../../app/core/bench/bench-io.js';
import { scalePlan } from '../../app/core/bench/plans.js';
import { runBenchmark } from '../../app/core/bench/runner.js';
import { chromiumMissingReason, chromiumPath } from '../helpers/chromium.js';
import { runPlumb } from '../helpers/cli.js';
import { pdfText, popplerMissingReason } from '../helpers/pdf.js';
import { loopSkipReason, mountLoopFs } from '../helpers/loopfs.js';
import {
  dropCaches,
  fakeDiskSkipReason,
  fileExtents,
  keptFiles,
  makeFakeDisk,
  physicalOffset,
  predictWrap,
} from '../helpers/verify-disks.js';

const MiB = 1024 * 1024;
const block = 4096;

let work: string;
let env: NodeJS.ProcessEnv;
before(async () => {
  work = await mkdtemp(path.join(os.tmpdir(), 'plumb-verify-e2e-'));
  env = { PLUMB_DATA_DIR: path.join(work, 'data') };
});
after(async () => {
  await rm(work, { recursive: true, force: true });
});

describe('plumb bench --verify', () => {
  it('catches a fake-capacity disk that wraps, with the first bad place and the bad bytes', async (t) => {
    const reason = fakeDiskSkipReason();
    if (reason) return t.skip(reason);
    // Real size drawn at random; the disk claims 256 MiB, the plan writes about 90 MB.
    const realBytes = randomInt(24, 64) * MiB;
    const disk = makeFakeDisk(realBytes, 256 * MiB);
    try {
      const out = path.join(work, 'fake.json');
      const result = runPlumb(
        [
          'bench',
          disk.dir,
          '--plan',
          'standard',
          '--scale',
          '0.002',
          '--reserve',
          '0',
          '--verify',
          '--keep-files',
          '--json',
          out,
        ],
        { env },
      );
      assert.equal(result.status, 0, result.stderr);
      const document = ResultDocument.parse(JSON.parse(await readFile(out, 'utf8')));
      const verify = document.verify;
      assert.ok(verify, 'the result has a verify section');
      assert.equal(verify.verdict, 'failed');
      assert.match(
        result.stdout,
        /^Verify: failed\. Capacity check failed: \S+ \S+ of \S+ \S+ read back wrong from .*\. Data written was not/m,
      );
      // The results list names the failed check beside the run.
      const listed = runPlumb(['results', 'list'], { env });
      assert.equal(listed.status, 0, listed.stderr);
      assert.match(listed.stdout, new RegExp(`^${document.id} .*\\(Capacity check failed\\)`, 'm'));

      const { placed, bad, last } = predictWrap(keptFiles(disk.dir), realBytes);
      const written = placed.reduce((sum, p) => sum + p.bytes, 0);
      assert.equal(verify.bytesChecked, written);
      assert.ok(bad.length > 0, `the plan wrote past the real ${realBytes} bytes`);
      // Blocks the wrap put onto ext4's own metadata may be rewritten by it: those may be bad too.
      const onMetadata = placed.filter(
        (p) => last.get(p.key) === p && p.physical >= realBytes && p.key < disk.metadataBytes,
      );
      const predicted = bad.reduce((sum, p) => sum + p.bytes, 0);
      const slack = onMetadata.reduce((sum, p) => sum + p.bytes, 0);
      assert.ok(
        verify.badBytes >= predicted && verify.badBytes <= predicted + slack,
        `bad bytes ${verify.badBytes}, predicted ${predicted} (+ up to ${slack} on metadata)`,
      );
      const first = [...bad, ...onMetadata].sort((a, b) => a.order - b.order)[0]!;
      assert.deepEqual(
        { file: verify.firstBad?.file, offset: verify.firstBad?.offset },
        { file: first.file, offset: first.offset },
      );
      if (bad.includes(first)) {
        const winner = last.get(first.key)!;
        assert.equal(verify.firstBad?.found.kind, 'other-block');
        assert.deepEqual(
          { file: verify.firstBad?.found.file, offset: verify.firstBad?.found.offset },
          { file: winner.file, offset: winner.offset },
        );
        assert.match(verify.message, new RegExp(`${winner.file}`));
      }

      // The PDF report says it too (the result page's Capacity check section, printed).
      if (!(chromiumMissingReason() ?? popplerMissingReason())) {
        const pdf = path.join(work, 'fake.pdf');
        const printed = runPlumb(['report', out, '--pdf', pdf, '--browser', chromiumPath()!], {
          env,
        });
        assert.equal(printed.status, 0, printed.stderr);
        const text = pdfText(pdf);
        assert.match(text, /capacity check/i);
        assert.match(text, /Capacity check failed: .* read back wrong/);
      }
    } finally {
      disk.remove();
    }
  });

  it('catches bytes changed in the loop image behind the file system, in the right file and block', async (t) => {
    const reason = loopSkipReason('ext4');
    if (reason) return t.skip(reason);
    const fs = mountLoopFs('ext4', { sizeBytes: 512 * MiB, mkfsArgs: ['-b', '4096'] });
    try {
      const image = execFileSync('losetup', ['-nO', 'BACK-FILE', fs.device!], {
        encoding: 'utf8',
      }).trim();
      let changed: { file: string; block: number } | null = null;
      // When the read-back phase starts, every file is written and flushed: change a few bytes of
      // one of them (drawn at random) in the image, where ext4 put them.
      const emit = (event: BenchEvent) => {
        if (event.type !== 'phase-started' || event.phase !== 'read' || changed) return;
        const files = keptFiles(fs.dir).filter((f) => statSync(f).size > 2 * block);
        const file = files[randomInt(files.length)]!;
        const size = statSync(file).size;
        const offset = randomInt(0, size - 16);
        const inBlock = Math.min(16, block - (offset % block));
        const at = physicalOffset(fileExtents(file), offset);
        dropCaches();
        const fd = openSync(image, 'r+');
        const bytes = Buffer.alloc(inBlock);
        readSync(fd, bytes, 0, inBlock, at);
        for (let i = 0; i < inBlock; i += 1) bytes[i] = bytes[i]! ^ 0x5a;
        writeSync(fd, bytes, 0, inBlock, at);
        closeSync(fd);
        dropCaches();
        changed = { file: path.basename(file), block: Math.floor(offset / block) * block };
      };
      const document = await runBenchmark(
        {
          target: fs.dir,
          plan: scalePlan(builtinPlan('standard')!, 0.003),
          scale: 0.003,
          reserve: { fraction: 0, minBytes: 0 },
          verify: true,
          keepFiles: true,
          appVersion: 'test',
          signal: new AbortController().signal,
          emit,
        },
        nativeBenchIO(),
      );
      assert.ok(changed, 'bytes were changed');
      const { file, block: at } = changed as { file: string; block: number };
      assert.equal(document.verify?.verdict, 'failed');
      assert.deepEqual(
        { file: document.verify?.firstBad?.file, offset: document.verify?.firstBad?.offset },
        { file, offset: at },
      );
      assert.equal(document.verify?.firstBad?.found.kind, 'damaged');
      const size = statSync(path.join(path.dirname(keptFiles(fs.dir)[0]!), file)).size;
      assert.equal(document.verify?.badBytes, Math.min(block, size - at));
      assert.match(document.verify!.message, /came back changed/);
    } finally {
      fs.unmount();
    }
  });

  it('passes a good disk with 0 bad bytes and says so in the summary', async (t) => {
    const reason = loopSkipReason('ext4');
    if (reason) return t.skip(reason);
    const fs = mountLoopFs('ext4', { sizeBytes: 512 * MiB });
    try {
      const result = runPlumb(
        ['bench', fs.dir, '--plan', 'standard', '--scale', '0.003', '--reserve', '0', '--verify'],
        { env },
      );
      assert.equal(result.status, 0, result.stderr);
      const id = /Saved as (\S+)/.exec(result.stdout)?.[1];
      assert.ok(id);
      const shown = runPlumb(['results', 'show', id, '--json'], { env });
      assert.equal(shown.status, 0, shown.stderr);
      const document = ResultDocument.parse(JSON.parse(shown.stdout));
      const written = document.files
        .filter((f) => f.phase === 'write')
        .reduce((sum, f) => sum + f.bytes, 0);
      // How many bytes the check proved, in the summary and in the PDF.
      const proved = `Capacity checked: ${formatBytes(written)} written and read back intact`;
      assert.match(
        result.stdout,
        new RegExp(
          `^Verify: passed\\. ${proved}\\. Every byte written was read back as written`,
          'm',
        ),
      );
      if (!(chromiumMissingReason() ?? popplerMissingReason())) {
        const pdf = path.join(work, 'good.pdf');
        const printed = runPlumb(['report', id, '--pdf', pdf, '--browser', chromiumPath()!], {
          env,
        });
        assert.equal(printed.status, 0, printed.stderr);
        assert.ok(pdfText(pdf).replace(/\s+/g, ' ').includes(proved), 'the PDF says it');
      }
      assert.deepEqual(
        {
          badBytes: document.verify?.badBytes,
          bytesChecked: document.verify?.bytesChecked,
          firstBad: document.verify?.firstBad,
          files: document.verify?.files,
        },
        { badBytes: 0, bytesChecked: written, firstBad: null, files: 160 },
      );
    } finally {
      fs.unmount();
    }
  });
});
