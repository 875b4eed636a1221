/**
 * Each installer packs the engine for its own OS and CPU. Read from build/electron-builder.yml as
 * electron-builder reads it: the targets (dmg arm64/x64, NSIS x64/arm64) and where each takes its
 * engine from (extraResources, `${arch}` expanded per target); then the engines
 * scripts/prepare-engines.ts lays out there, each checked to be a Mach-O or PE for that CPU,
 * by the loader's header reader and by file(1) as a second, independent reader.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, describe, it } from 'node:test';
import { engineBinaryOfFile } from '../../app/core/native/engine-binary.js';
import { installerTargets, prepareEngines, root } from '../../scripts/prepare-engines.js';

const { load } = createRequire(import.meta.url)('js-yaml') as { load(text: string): unknown };

interface FileSet {
  from: string;
  to: string;
  filter?: string[];
}
interface PlatformConfig {
  target: { target: string; arch: string[] }[];
  extraResources?: FileSet[];
}
const config = load(readFileSync(path.join(root, 'build', 'electron-builder.yml'), 'utf8')) as {
  mac: PlatformConfig;
  win: PlatformConfig;
  dmg: { artifactName: string };
  nsis: { artifactName: string };
  files: string[];
  extraResources?: unknown;
};

// electron-builder's configuration keys and the process.platform each packs for.
const platforms = { mac: 'darwin', win: 'win32' } as const;

/** Every installer the config builds, with the engine folder its `${arch}` expands to. */
const installers = Object.entries(platforms).flatMap(([key, platform]) => {
  const section = config[key as keyof typeof platforms];
  const engineSet = section.extraResources?.find((set) => set.to === 'engine');
  return section.target.flatMap(({ target, arch }) =>
    arch.map((cpu) => ({
      name: `${target} ${cpu}`,
      platform,
      arch: cpu,
      engineSet,
      from: engineSet?.from.replaceAll('${arch}', cpu),
    })),
  );
});

// What file(1) prints for each (the magic database's own words).
const fileSays: Record<string, RegExp> = {
  'darwin-arm64': /Mach-O (64-bit )?.*arm64/,
  'darwin-x64': /Mach-O (64-bit )?.*x86_64/,
  'win32-x64': /PE32\+ executable \(DLL\).*x86-64/,
  'win32-arm64': /PE32\+ executable \(DLL\).*Aarch64/,
};

/** The load command types of a thin 64-bit Mach-O (<mach-o/loader.h>: ncmds at 16, commands at 32). */
function machOLoadCommands(file: string): number[] {
  const bytes = readFileSync(file);
  const commands: number[] = [];
  let offset = 32;
  for (let i = 0; i < bytes.readUInt32LE(16); i += 1) {
    commands.push(bytes.readUInt32LE(offset));
    offset += bytes.readUInt32LE(offset + 4);
  }
  return commands;
}
const LC_CODE_SIGNATURE = 0x1d;

describe('the engine each installer packs', () => {
  it('the four installers, and no engine packed for all of them alike', () => {
    assert.deepEqual(
      installers.map(({ platform, arch }) => `${platform}-${arch}`).sort(),
      [...installerTargets].sort(),
    );
    // The engine of the machine that packages must not ride along in the asar or for everyone.
    assert.ok(!config.files.some((entry) => entry.includes('.node')), config.files.join());
    assert.equal(config.extraResources, undefined);
    // Each CPU's installer is a file of its own, named for its CPU.
    assert.match(config.dmg.artifactName, /\$\{arch\}/);
    assert.match(config.nsis.artifactName, /\$\{arch\}/);
    for (const installer of installers) {
      assert.ok(installer.engineSet, `${installer.name}: no extraResources to "engine"`);
      assert.equal(installer.from, `native/engines/${installer.platform}-${installer.arch}`);
      assert.deepEqual(installer.engineSet.filter, ['plumb.node']);
    }
  });

  const outRoot = mkdtempSync(path.join(tmpdir(), 'plumb-packed-'));
  after(() => rmSync(outRoot, { recursive: true, force: true }));
  const { missing } = prepareEngines(outRoot);
  const hasFile = spawnSync('file', ['--version']).status === 0;

  for (const installer of installers) {
    const target = `${installer.platform}-${installer.arch}`;
    it(`${installer.name}: a ${target} engine`, (t) => {
      const absent = missing.find((line) => line.startsWith(`${target} `));
      if (absent) {
        // The cross-builds need zig and mingw-w64 (.ci/run installs them and builds first).
        t.skip(`no cross-built engine for ${absent}`);
        return;
      }
      const packed = path.join(outRoot, installer.from!, 'plumb.node');
      assert.ok(existsSync(packed), packed);
      const binary = engineBinaryOfFile(packed);
      assert.ok(binary, `${packed} is not an engine binary`);
      assert.equal(binary.platform, installer.platform, binary.description);
      assert.ok(binary.archs.includes(installer.arch), binary.description);
      if (hasFile) {
        const said = spawnSync('file', ['-b', packed], { encoding: 'utf8' }).stdout;
        assert.match(said, fileSays[target]!, said);
      }
      if (target === 'darwin-arm64') {
        // Apple silicon kills unsigned code: the engine needs at least the linker's ad-hoc signature
        // (electron-builder re-signs it with the app's identity when there is one).
        assert.ok(machOLoadCommands(packed).includes(LC_CODE_SIGNATURE), 'no LC_CODE_SIGNATURE');
      }
    });
  }
});
