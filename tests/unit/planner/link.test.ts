import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { DeviceProfile, Scenario } from '../../../app/contract/planner.js';
import { builtInCatalogue } from '../../../app/core/planner/catalogue.js';
import { resolveLink } from '../../../app/core/planner/link.js';

const catalogue = builtInCatalogue();
const device = (id: string): DeviceProfile => catalogue.devices.find((d) => d.id === id)!;
const host = (
  kind: Scenario['host']['kind'],
  port: Scenario['host']['port'],
  throughDock = false,
) => ({
  kind,
  port,
  throughDock,
});

test('a TB5 SSD runs at TB5 on a TB5 port, USB4 on a TB4 port, ~1 GB/s on an Intel Mac', () => {
  assert.equal(
    resolveLink(catalogue, host('apple-silicon', 'tb5'), device('tb5-2tb')).link
      .ceilingBytesPerSecond,
    6e9,
  );
  const usb4 = resolveLink(catalogue, host('apple-silicon', 'tb4-usb4'), device('tb5-2tb'));
  assert.equal(usb4.link.mode, 'usb4');
  const intel = resolveLink(catalogue, host('intel-mac', 'tb3'), device('tb5-2tb'));
  assert.equal(intel.link.mode, 'usb32g2');
  assert.equal(intel.link.ceilingBytesPerSecond, 1e9);
  assert.deepEqual(
    intel.warnings.map((w) => [w.code, w.source]),
    [['tb5-on-intel-mac', 'seed-000']],
  );
});

test('a USB4 SSD on a TB3-only port or an Intel Mac falls to ~1 GB/s', () => {
  const pc = resolveLink(catalogue, host('windows-pc', 'tb3'), device('usb4-990-pro-2tb'));
  assert.equal(pc.link.ceilingBytesPerSecond, 1e9);
  assert.equal(pc.warnings[0]!.code, 'usb4-on-tb3');
  const intel = resolveLink(catalogue, host('intel-mac', 'tb3'), device('usb4-990-pro-2tb'));
  assert.equal(intel.link.ceilingBytesPerSecond, 1e9);
});

test('USB 3.2 Gen 2x2 runs at Gen 2 on any Mac, at 2x2 on a PC with the port', () => {
  const mac = resolveLink(catalogue, host('apple-silicon', 'tb5'), device('samsung-t9-4tb'));
  assert.equal(mac.link.mode, 'usb32g2');
  assert.equal(mac.link.ceilingBytesPerSecond, 1e9);
  const pc = resolveLink(catalogue, host('windows-pc', 'usb32g2x2'), device('samsung-t9-4tb'));
  assert.equal(pc.link.ceilingBytesPerSecond, 2e9);
});

test('writes to a TB3 SSD through a TB4/TB5 dock run at ~1.6 GB/s; reads are not limited', () => {
  const direct = resolveLink(catalogue, host('apple-silicon', 'tb5'), device('samsung-x5-500gb'));
  assert.equal(direct.link.writeCeilingBytesPerSecond, 2.8e9);
  const docked = resolveLink(
    catalogue,
    host('apple-silicon', 'tb5', true),
    device('samsung-x5-500gb'),
  );
  assert.equal(docked.link.writeCeilingBytesPerSecond, 1.6e9);
  assert.equal(docked.link.ceilingBytesPerSecond, 2.8e9);
  assert.ok(docked.warnings.some((w) => w.code === 'tb3-through-dock'));
});

test('a TB3 SSD cannot be used on a host with only USB ports', () => {
  const resolved = resolveLink(
    catalogue,
    host('windows-pc', 'usb32g2'),
    device('samsung-x5-500gb'),
  );
  assert.equal(resolved.link.usable, false);
});

test('internal SSDs have no link limit; USB SSDs on a Mac carry the Trim warning', () => {
  const internal = resolveLink(
    catalogue,
    host('apple-silicon', 'tb5'),
    device('apple-silicon-internal'),
  );
  assert.equal(internal.link.ceilingBytesPerSecond, null);
  const t7 = resolveLink(catalogue, host('apple-silicon', 'tb5'), device('samsung-t7-shield-2tb'));
  assert.ok(t7.warnings.some((w) => w.code === 'usb-main-storage'));
});
