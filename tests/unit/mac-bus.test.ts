// The Mac bus from diskutil and system_profiler output (samples in their documented formats, in
// fixtures/mac-bus), and what it sets off: the interface ceiling, the impossible-rate finding
// (seeds 001, 003, 004) and the planner's link.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { interfaceCeilingForBus } from '../../app/core/analysis/interface-ceiling.js';
import { analyzeCsvText, reanalyzeDocument } from '../../app/core/bench/analyze.js';
import { seededRandom } from '../../app/core/bench/seeded-random.js';
import { macBus, parseDiskutilInfo, parsePlist } from '../../app/core/os/darwin/mac-bus.js';
import { interfaceOfBus } from '../../app/core/planner/profile-from-result.js';

const fixtures = path.join(path.dirname(fileURLToPath(import.meta.url)), 'fixtures', 'mac-bus');
function sample(name: string) {
  const disk = parseDiskutilInfo(
    readFileSync(path.join(fixtures, `${name}.diskutil.plist`), 'utf8'),
  );
  const profiler = JSON.parse(
    readFileSync(path.join(fixtures, `${name}.system_profiler.json`), 'utf8'),
  ) as Record<string, unknown>;
  return macBus(disk, profiler);
}

/** A read phase at about `rate` (±5 %, drawn) over 12 files of 256 MB, analysed with `bus`. */
function readPhaseOn(bus: string | null, rate: number, seed: number) {
  const random = seededRandom(seed);
  const csv = [
    'bytes,seconds',
    ...Array.from({ length: 12 }, () => `256000000,${256e6 / (rate * (0.95 + 0.1 * random()))}`),
  ].join('\n');
  const document = analyzeCsvText(csv, { appVersion: 'test', phase: 'read' });
  const withBus = {
    ...document,
    environment: { ...document.environment, volume: { ...document.environment.volume, bus } },
  };
  return reanalyzeDocument(withBus).findings.filter((f) => f.kind === 'exceeds-interface');
}

describe('parsePlist', () => {
  it('reads dictionaries, arrays, scalars and escapes', () => {
    const xml =
      '<plist version="1.0"><dict><key>A &amp; B</key><string>x &lt;y&gt;</string>' +
      '<key>n</key><integer>-42</integer><key>r</key><real>1.5</real><key>t</key><true/>' +
      '<key>e</key><string/><key>list</key><array><dict><key>k</key><false/></dict><array/></array></dict></plist>';
    assert.deepEqual(parsePlist(xml), {
      'A & B': 'x <y>',
      n: -42,
      r: 1.5,
      t: true,
      e: '',
      list: [{ k: false }, []],
    });
  });
  it('says when the list ends early', () => {
    assert.throws(() => parsePlist('<plist><dict><key>a</key>'), /ends early/);
  });
});

describe('macBus on sample outputs', () => {
  it('internal Apple SSD (M1): Apple Fabric, internal, solid state, base-chip ceiling', () => {
    const bus = sample('internal-m1');
    assert.deepEqual(bus, { bus: 'apple fabric (apple m1)', internal: true, medium: 'ssd' });
    assert.equal(interfaceCeilingForBus(bus.bus)?.id, 'apple-internal-base');
    assert.deepEqual(interfaceOfBus(bus.bus), { id: 'apple-internal', internal: true });
  });
  it('Thunderbolt 5 SSD: external PCIe at 120 Gb/s', () => {
    const bus = sample('tb5-ssd');
    assert.deepEqual(bus, { bus: 'thunderbolt 5', internal: false, medium: 'ssd' });
    assert.equal(interfaceCeilingForBus(bus.bus)?.id, 'tb5');
    assert.deepEqual(interfaceOfBus(bus.bus), { id: 'tb5', internal: false });
  });
  it('USB 3.2 SSD: its APFS physical store found in the USB tree at SuperSpeed+', () => {
    const bus = sample('usb32-ssd');
    assert.deepEqual(bus, { bus: 'usb 3.2 gen 2', internal: false, medium: 'ssd' });
    assert.equal(interfaceCeilingForBus(bus.bus)?.id, 'usb3-gen2');
    assert.deepEqual(interfaceOfBus(bus.bus), { id: 'usb32g2', internal: false });
  });
  it('SATA disk over USB: the bridge names SATA; the slower of SATA and the USB link', () => {
    const bus = sample('sata-over-usb');
    assert.deepEqual(bus, { bus: 'sata over usb 3.2 gen 1', internal: false, medium: 'ssd' });
    assert.equal(interfaceCeilingForBus(bus.bus)?.id, 'usb3-gen1');
  });
  it('an unknown link stays the fastest of its kind; a Pro chip gets the Pro ceiling', () => {
    assert.equal(interfaceCeilingForBus('thunderbolt')?.id, 'tb5');
    assert.equal(interfaceCeilingForBus('usb')?.id, 'usb3-gen2x2');
    assert.equal(interfaceCeilingForBus('apple fabric (apple m1 max)')?.id, 'apple-internal');
    assert.equal(interfaceCeilingForBus('sata over usb 3.2 gen 2')?.id, 'sata');
    assert.equal(interfaceCeilingForBus('usb4 or thunderbolt 3/4 (40 gb/s)')?.id, 'usb4');
  });
});

describe('the impossible-rate finding on Macs', () => {
  it('fires for a TB5 result above 6 GB/s, not for 5.5 GB/s', () => {
    const bus = sample('tb5-ssd').bus;
    assert.equal(readPhaseOn(bus, 7.2e9, 1).length, 1);
    assert.equal(readPhaseOn(bus, 5.2e9, 2).length, 0);
  });
  it('fires for an internal M1 read over 7 GB/s (seed 004: 7.5 GB/s), not for 2.9 GB/s', () => {
    const bus = sample('internal-m1').bus;
    const [found] = readPhaseOn(bus, 7.5e9, 3);
    assert.ok(found && found.kind === 'exceeds-interface' && found.count >= 10);
    assert.equal(readPhaseOn(bus, 2.9e9, 4).length, 0);
  });
  it('fires for a SATA-over-USB read of 8 GB/s, not for 0.4 GB/s', () => {
    const bus = sample('sata-over-usb').bus;
    assert.equal(readPhaseOn(bus, 8e9, 5).length, 1);
    assert.equal(readPhaseOn(bus, 0.4e9, 6).length, 0);
  });
  it('without a bus, fires only beyond any SSD known, and says served from memory or a cache', () => {
    const [found] = readPhaseOn(null, 12e9, 7);
    assert.ok(found && found.kind === 'exceeds-interface' && found.count === 12);
    assert.equal(found.interface, 'any-ssd');
    assert.match(
      found.message,
      /^12 files read went faster than any SSD Plumb knows of .*memory or a cache/,
    );
    // No ceiling is known, so a fast internal SSD's 5 GB/s is not called impossible.
    assert.equal(readPhaseOn(null, 5e9, 8).length, 0);
  });
});
