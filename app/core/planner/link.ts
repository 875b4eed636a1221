/**
 * What an external SSD actually runs at on a given host and port: the interface it falls back to
 * and its ceilings, with the warnings the sources give for each fallback.
 */
import type {
  Catalogue,
  DeviceProfile,
  InterfaceId,
  Link,
  Scenario,
  Warning,
} from '../../contract/planner.js';
import { interfaceCeiling, interfaceClass } from './catalogue.js';

export interface ResolvedLink {
  link: Link;
  warnings: Warning[];
}

type Host = Scenario['host'];

const thunderboltPorts = new Set<Host['port']>(['tb5', 'tb4-usb4', 'tb3']);

function linkAt(
  catalogue: Catalogue,
  mode: InterfaceId,
  ceiling: number | null,
  usable = true,
): Link {
  return {
    mode,
    // A measured disk on a bus Plumb could not name keeps the speed it was measured at.
    modeName:
      interfaceClass(catalogue, mode)?.name ??
      (mode === 'measured' ? 'the connection it was measured on' : mode),
    ceilingBytesPerSecond: ceiling,
    writeCeilingBytesPerSecond: ceiling,
    usable,
  };
}

/** Resolves the link of a device attached to `host`; internal devices have no link limit. */
export function resolveLink(catalogue: Catalogue, host: Host, device: DeviceProfile): ResolvedLink {
  const warnings: Warning[] = [];
  const fallback = catalogue.rules.fallbackBytesPerSecond;
  const native = (mode: InterfaceId) => linkAt(catalogue, mode, interfaceCeiling(catalogue, mode));
  const fellBack = (code: string, message: string): Link => {
    warnings.push({ code, message, source: fallback.source });
    return linkAt(catalogue, 'usb32g2', fallback.value);
  };
  const isMac = host.kind !== 'windows-pc';
  const intelMac = host.kind === 'intel-mac';

  if (device.placement === 'internal' || device.interface === 'measured') {
    return { link: linkAt(catalogue, device.interface, null), warnings };
  }

  let link: Link;
  switch (device.interface) {
    case 'tb5':
      if (intelMac) {
        link = fellBack(
          'tb5-on-intel-mac',
          'Intel Macs do not support TB5 or USB4: this SSD most likely falls back to USB 3.2 Gen 2, about 1 GB/s.',
        );
      } else if (host.port === 'tb5') {
        link = native('tb5');
      } else if (host.port === 'tb4-usb4') {
        link = native('usb4');
        warnings.push({
          code: 'tb5-as-usb4',
          message: 'Without a TB5 port this SSD runs in USB4 40 Gb/s mode.',
          source: 'seed-000',
        });
      } else if (host.port === 'tb3') {
        link = native('tb3');
        warnings.push({
          code: 'tb5-on-tb3',
          message: 'On a Thunderbolt 3 port, confirm the SSD supports TB3 before you buy it.',
          source: 'seed-000',
        });
      } else {
        link = fellBack(
          'tb5-on-usb',
          'On a USB port this SSD runs at USB 3.2 Gen 2 at best, about 1 GB/s.',
        );
      }
      break;
    case 'usb4':
      if (!intelMac && (host.port === 'tb5' || host.port === 'tb4-usb4')) {
        link = native('usb4');
      } else if (intelMac) {
        link = fellBack(
          'usb4-on-intel-mac',
          'Intel Macs do not support USB4: this SSD falls back to USB 3.2 Gen 2, about 1 GB/s.',
        );
      } else {
        link = fellBack(
          'usb4-on-tb3',
          'A USB4 SSD on a port without USB4 (TB3-only or USB) is limited to about 1 GB/s.',
        );
      }
      break;
    case 'tb3':
      if (!thunderboltPorts.has(host.port)) {
        link = linkAt(catalogue, 'tb3', null, false);
        warnings.push({
          code: 'tb3-needs-thunderbolt',
          message: 'A Thunderbolt 3 SSD needs a Thunderbolt port; this host has only USB.',
          source: null,
        });
      } else {
        link = native('tb3');
      }
      break;
    case 'usb32g2x2':
      if (isMac) {
        link = fellBack(
          '2x2-on-mac',
          'No Mac supports USB 3.2 Gen 2x2: it runs at Gen 2, about 1 GB/s.',
        );
      } else if (host.port === 'usb32g2x2') {
        link = native('usb32g2x2');
      } else {
        link = fellBack(
          '2x2-without-port',
          'Without a USB 3.2 Gen 2x2 port this SSD runs at Gen 2, about 1 GB/s.',
        );
      }
      break;
    default:
      link = native(device.interface);
  }

  if (host.throughDock && link.mode === 'tb3' && link.usable) {
    const dock = catalogue.rules.dockTb3WriteBytesPerSecond;
    link = {
      ...link,
      writeCeilingBytesPerSecond: Math.min(link.ceilingBytesPerSecond ?? Infinity, dock.value),
    };
    warnings.push({
      code: 'tb3-through-dock',
      message: 'Writes to a TB3 SSD through a TB4 hub or TB5 dock run at about 1.6 GB/s.',
      source: dock.source,
    });
  }
  if (isMac && (device.interface.startsWith('usb32') || device.protocol === 'sata')) {
    warnings.push({
      code: 'usb-main-storage',
      message:
        'A USB 3.2 SSD as main storage may not be Trimmed by macOS, and without Trim writes can fall to about 10 % of new.',
      source: catalogue.rules.noTrimWriteFraction.source,
    });
  }
  return { link, warnings };
}

/** A rate limited by the link's ceiling; ceilings of null do not limit. */
export function capped(rate: number, ceiling: number | null): number {
  return ceiling === null ? rate : Math.min(rate, ceiling);
}
