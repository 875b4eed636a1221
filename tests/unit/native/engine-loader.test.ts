/**
 * The loader picks the engine built for this OS and CPU and says plainly when there is none: a
 * missing engine, and one for another CPU (the Intel Mac app with an arm64 engine, Windows on Arm
 * with an x64 one), each with a sentence naming the computer and what to install. Headers are
 * written here byte by byte from the formats' specifications, the rest of each file random.
 */
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { newSeed, seededRandom } from '../../../app/core/bench/seeded-random.js';
import { engineBinary } from '../../../app/core/native/engine-binary.js';
import { addonCandidates, findEngine } from '../../../app/core/native/load.js';

const seed = Number(process.env.PLUMB_TEST_SEED ?? newSeed());
console.log(`# seed ${seed} (replay with PLUMB_TEST_SEED=${seed})`);
const random = seededRandom(seed);

/** `size` random bytes with `header` written at the start. */
function fileBytes(header: Buffer, size = 4096): Buffer {
  const bytes = Buffer.from(Array.from({ length: size }, () => Math.floor(random() * 256)));
  header.copy(bytes);
  return bytes;
}

/** A thin Mach-O 64 header (<mach-o/loader.h> mach_header_64): magic, cputype. */
function machO(cpuType: number): Buffer {
  const header = Buffer.alloc(32);
  header.writeUInt32LE(0xfeedfacf, 0);
  header.writeInt32LE(cpuType, 4);
  header.writeUInt32LE(6, 12); // MH_DYLIB
  return header;
}

/** A universal (fat) header (<mach-o/fat.h>), big-endian, one fat_arch per CPU. */
function fatMachO(cpuTypes: number[]): Buffer {
  const header = Buffer.alloc(8 + 20 * cpuTypes.length);
  header.writeUInt32BE(0xcafebabe, 0);
  header.writeUInt32BE(cpuTypes.length, 4);
  cpuTypes.forEach((cpu, i) => header.writeInt32BE(cpu, 8 + 20 * i));
  return header;
}

/** A DOS stub whose e_lfanew points at a PE signature and IMAGE_FILE_HEADER.Machine. */
function pe(machine: number): Buffer {
  const peOffset = 64 + Math.floor(random() * 200) * 8; // stubs vary in length between linkers
  const header = Buffer.alloc(peOffset + 24);
  header.write('MZ', 0, 'latin1');
  header.writeUInt32LE(peOffset, 0x3c);
  header.write('PE\0\0', peOffset, 'latin1');
  header.writeUInt16LE(machine, peOffset + 4);
  return header;
}

/** An ELF64 little-endian header (System V ABI): e_ident, e_type, e_machine. */
function elf(machine: number): Buffer {
  const header = Buffer.from([0x7f, 0x45, 0x4c, 0x46, 2, 1, 1, 0, ...new Array<number>(8).fill(0)]);
  const rest = Buffer.alloc(48);
  rest.writeUInt16LE(3, 0); // ET_DYN
  rest.writeUInt16LE(machine, 2);
  return Buffer.concat([header, rest]);
}

const arm64 = 0x0100000c;
const x86_64 = 0x01000007;

describe('engineBinary reads the OS and CPU of an engine from its header', () => {
  const cases: [string, Buffer, string, string[]][] = [
    ['Mach-O arm64', machO(arm64), 'darwin', ['arm64']],
    ['Mach-O x86_64', machO(x86_64), 'darwin', ['x64']],
    ['universal Mach-O', fatMachO([x86_64, arm64]), 'darwin', ['x64', 'arm64']],
    ['PE x64', pe(0x8664), 'win32', ['x64']],
    ['PE arm64', pe(0xaa64), 'win32', ['arm64']],
    ['ELF x86-64', elf(0x3e), 'linux', ['x64']],
    ['ELF aarch64', elf(0xb7), 'linux', ['arm64']],
  ];
  for (const [name, header, platform, archs] of cases) {
    it(name, () => {
      const binary = engineBinary(fileBytes(header));
      assert.equal(binary?.platform, platform);
      assert.deepEqual(binary.archs, archs);
    });
  }

  it('a Java class file (the fat magic too), text or a short file is not an engine', () => {
    const javaClass = Buffer.from([0xca, 0xfe, 0xba, 0xbe, 0, 0, 0, 0x41]); // version 65
    assert.equal(engineBinary(fileBytes(javaClass)), null);
    assert.equal(engineBinary(fileBytes(Buffer.from('{"not": "an engine"}'))), null);
    assert.equal(engineBinary(machO(arm64).subarray(0, 16)), null);
    const mzWithoutPe = fileBytes(Buffer.from('MZ'));
    mzWithoutPe.writeUInt32LE(128, 0x3c);
    mzWithoutPe.write('XX', 128, 'latin1');
    assert.equal(engineBinary(mzWithoutPe), null);
  });
});

describe('findEngine', () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'plumb-engines-'));
  after(() => rmSync(dir, { recursive: true, force: true }));
  const engine = (name: string, header: Buffer) => {
    const file = path.join(dir, `${name}.node`);
    writeFileSync(file, fileBytes(header, 8192));
    return file;
  };

  it('says the engine is missing, for which computer, and what to do', () => {
    assert.throws(
      () => findEngine([path.join(dir, 'nowhere.node')], 'darwin', 'arm64'),
      (error: Error & { code?: string }) => {
        assert.equal(error.code, 'ENATIVE');
        assert.match(error.message, /engine for macOS arm64 is missing\. Reinstall Plumb/);
        return true;
      },
    );
  });

  it('refuses an engine for another CPU, naming both, rather than letting the OS fail to load it', () => {
    const intel = engine('intel', machO(x86_64));
    assert.throws(
      () => findEngine([intel], 'darwin', 'arm64'),
      (error: Error & { code?: string }) => {
        assert.equal(error.code, 'ENATIVE');
        assert.ok(error.message.includes(`${intel} is for macOS x64`), error.message);
        assert.match(error.message, /Install the Plumb download for macOS arm64/);
        return true;
      },
    );
    const windowsX64 = engine('win-x64', pe(0x8664));
    assert.throws(() => findEngine([windowsX64], 'win32', 'arm64'), /is for Windows x64/);
    assert.throws(() => findEngine([windowsX64], 'darwin', 'x64'), /is for Windows x64/);
  });

  it('passes over a misfit to the engine that fits, and takes either CPU from a universal one', () => {
    const windowsArm = engine('win-arm64', pe(0xaa64));
    const windowsX64 = engine('win-x64b', pe(0x8664));
    assert.equal(findEngine([windowsArm, windowsX64], 'win32', 'x64'), windowsX64);
    const universal = engine('universal', fatMachO([arm64, x86_64]));
    assert.equal(findEngine([universal], 'darwin', 'arm64'), universal);
    assert.equal(findEngine([universal], 'darwin', 'x64'), universal);
  });

  it('finds the engine built here for this computer', (t) => {
    const here = path.dirname(fileURLToPath(import.meta.url));
    const built = path.join(here, '..', '..', '..', 'native', 'build', 'Release', 'plumb.node');
    if (!existsSync(built)) {
      t.skip(`${built} is not built (npm run build:native)`);
      return;
    }
    const candidates = addonCandidates(path.join(here, '..', '..', '..', 'app', 'core', 'native'));
    assert.equal(path.resolve(findEngine(candidates)), path.resolve(built));
  });
});
