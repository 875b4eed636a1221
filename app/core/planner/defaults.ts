/**
 * A starting scenario for the computer Plumb runs on: its kind of host, what its disk holds now,
 * and its internal SSD as measured when a saved result exists. Pure: facts come in as arguments.
 */
import type { DeviceProfile, HostKind, PortKind, ScenarioInput } from '../../contract/planner.js';
import { shortOptionName } from '../../common/option-name.js';

export interface MachineFacts {
  platform: NodeJS.Platform;
  arch: string;
  /** Bytes in use on the disk that holds the home folder, when known. */
  usedBytes: number | null;
  measured: readonly DeviceProfile[];
}

export interface Defaults {
  scenario: ScenarioInput;
  notes: string[];
}

function hostOf(platform: NodeJS.Platform, arch: string): { kind: HostKind; port: PortKind } {
  if (platform === 'darwin') {
    return arch === 'arm64'
      ? { kind: 'apple-silicon', port: 'tb5' }
      : { kind: 'intel-mac', port: 'tb3' };
  }
  if (platform === 'win32') return { kind: 'windows-pc', port: 'tb4-usb4' };
  return { kind: 'apple-silicon', port: 'tb5' };
}

const gigabyte = 1e9;

export function defaultScenario(facts: MachineFacts): Defaults {
  const notes: string[] = [];
  const host = hostOf(facts.platform, facts.arch);
  if (facts.platform !== 'darwin' && facts.platform !== 'win32') {
    notes.push(
      'This computer is not a Mac or a Windows PC, so the plan starts from a new Apple silicon Mac.',
    );
  }
  if (host.port === 'tb5') {
    notes.push(
      'Thunderbolt 5 ports are on Macs with M4 Pro or M4 Max; choose TB4/USB4 for other Apple silicon Macs.',
    );
  }
  // What the disk holds now must stay internal; round up to whole tens of GB.
  const keepInternal =
    facts.usedBytes !== null && facts.usedBytes > 0
      ? Math.ceil(facts.usedBytes / (10 * gigabyte)) * 10 * gigabyte
      : 250 * gigabyte;
  notes.push(
    facts.usedBytes !== null
      ? 'What stays internal starts from what this computer’s disk holds now.'
      : 'What stays internal starts at 250 GB: the disk of this computer could not be read.',
  );
  const internalMeasured = facts.measured.find((d) => d.placement === 'internal');
  if (internalMeasured) {
    notes.push(`The internal SSD uses your measured profile "${internalMeasured.name}".`);
  }
  const internalDevice = internalMeasured ? { internalDevice: internalMeasured.id } : {};
  const windows = host.kind === 'windows-pc';
  // Apple's upgrade prices do not apply to PCs: compare keeping the current disk (it costs
  // nothing) plus externals, and a bigger internal SSD whose price the user is asked for.
  const small = windows
    ? { internalCapacity: 1e12, internalUpgradeUsd: 0, ...internalDevice }
    : { internalCapacity: 512 * gigabyte, ...internalDevice };
  if (windows) {
    notes.push(
      'Plumb has no prices for a bigger internal SSD in a PC: give the price of the SSD you would fit in the 2 TB option.',
    );
  }
  // Named by the rule a renamed disk follows (option-name.ts), so a name Plumb gave changes with
  // the disk chosen in its place.
  const withExternal = (device: string, link: string) => ({
    name: shortOptionName({ ...small, external: { name: device, interface: link } }),
    ...small,
    external: { device },
  });
  const options: ScenarioInput['options'] = [
    {
      name: shortOptionName({ internalCapacity: 2e12 }),
      internalCapacity: 2e12,
      ...internalDevice,
    },
    withExternal('tb5-2tb', 'tb5'),
    withExternal('usb4-990-pro-2tb', 'usb4'),
    withExternal('samsung-t7-shield-2tb', 'usb32g2'),
  ];
  return {
    scenario: {
      name: 'My next computer',
      host: { ...host, throughDock: false },
      data: {
        keepInternal,
        movable: 500 * gigabyte,
        internalGrowthPerYear: 20 * gigabyte,
        movableGrowthPerYear: 100 * gigabyte,
      },
      workload: {
        bursts: [{ name: 'Import 100 GB of video', size: 100 * gigabyte, target: 'movable' }],
        dailyWritesInternal: 20 * gigabyte,
        dailyWritesMovable: 10 * gigabyte,
      },
      horizonYears: 4,
      prefer: 'cost',
      devices: [],
      options,
    },
    notes,
  };
}
