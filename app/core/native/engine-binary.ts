/**
 * What OS and CPU a native engine file was built for, read from its first bytes: ELF (Linux),
 * Mach-O thin or universal (macOS), PE (Windows). The loader uses it to refuse an engine that
 * cannot load here with a sentence instead of dlopen's or LoadLibrary's code; the packaging test
 * uses it to check each installer's engine.
 */
import { closeSync, openSync, readSync } from 'node:fs';

/** process.platform and process.arch names, so a fit is a plain comparison. */
export interface EngineBinary {
  platform: 'linux' | 'darwin' | 'win32';
  /** One CPU for a thin binary, each slice's for a universal Mach-O. */
  archs: string[];
  /** A one-line name for messages: "Windows arm64", "macOS universal (arm64, x64)". */
  description: string;
}

/** How many bytes `engineBinary` needs: a PE's header sits past its DOS stub, at e_lfanew. */
const engineHeaderBytes = 4096;

// ELF e_machine (System V ABI, "Machine Information").
const elfMachines: Record<number, string> = { 0x3e: 'x64', 0xb7: 'arm64', 0x03: 'ia32' };
// Mach-O cputype (<mach/machine.h>): CPU_TYPE_X86_64, CPU_TYPE_ARM64.
const machoCpus: Record<number, string> = { 0x01000007: 'x64', 0x0100000c: 'arm64' };
// PE IMAGE_FILE_HEADER.Machine (Microsoft "PE Format", Machine Types).
const peMachines: Record<number, string> = { 0x8664: 'x64', 0xaa64: 'arm64', 0x14c: 'ia32' };

const osNames = { linux: 'Linux', darwin: 'macOS', win32: 'Windows' } as const;

function described(platform: EngineBinary['platform'], archs: string[], universal = false) {
  const cpus = archs.length > 0 ? archs.join(', ') : 'an unknown CPU';
  const description = universal
    ? `${osNames[platform]} universal (${cpus})`
    : `${osNames[platform]} ${cpus}`;
  return { platform, archs, description };
}

const cpuName = (table: Record<number, string>, code: number) =>
  table[code] ?? `CPU 0x${code.toString(16)}`;

/** The OS and CPUs of an engine from its first `engineHeaderBytes` bytes; null when not a binary. */
export function engineBinary(header: Buffer): EngineBinary | null {
  if (header.length < 64) return null;
  if (header.readUInt32BE(0) === 0x7f454c46) {
    // EI_DATA 1 = little-endian; e_machine follows e_type at offset 18.
    const machine = header[5] === 1 ? header.readUInt16LE(18) : header.readUInt16BE(18);
    return described('linux', [cpuName(elfMachines, machine)]);
  }
  const magicLE = header.readUInt32LE(0);
  if (magicLE === 0xfeedfacf || magicLE === 0xfeedface) {
    return described('darwin', [cpuName(machoCpus, header.readInt32LE(4))]);
  }
  // FAT_MAGIC / FAT_MAGIC_64 (<mach-o/fat.h>), big-endian: nfat_arch, then 20- or 32-byte entries.
  const fatMagic = header.readUInt32BE(0);
  if (fatMagic === 0xcafebabe || fatMagic === 0xcafebabf) {
    const count = header.readUInt32BE(4);
    const entryBytes = fatMagic === 0xcafebabe ? 20 : 32;
    // Java class files share this magic; their "count" (a version) is far above any real fat file.
    if (count === 0 || count > 8 || 8 + count * entryBytes > header.length) return null;
    const archs = Array.from({ length: count }, (_, i) =>
      cpuName(machoCpus, header.readInt32BE(8 + i * entryBytes)),
    );
    return described('darwin', archs, true);
  }
  if (header.toString('latin1', 0, 2) === 'MZ') {
    const peOffset = header.readUInt32LE(0x3c);
    if (
      peOffset + 6 > header.length ||
      header.toString('latin1', peOffset, peOffset + 4) !== 'PE\0\0'
    )
      return null;
    return described('win32', [cpuName(peMachines, header.readUInt16LE(peOffset + 4))]);
  }
  return null;
}

/** Whether an engine built as `binary` loads in a process of `platform` and `arch`. */
export function engineFits(binary: EngineBinary, platform: string, arch: string): boolean {
  return binary.platform === platform && binary.archs.includes(arch);
}

/** "macOS arm64", "Windows x64": how messages name the computer an engine is wanted for. */
export function computerName(platform: string, arch: string): string {
  const os = (osNames as Record<string, string | undefined>)[platform] ?? platform;
  return `${os} ${arch}`;
}

/** The OS and CPUs of the engine file at `file` (its header only is read). */
export function engineBinaryOfFile(file: string): EngineBinary | null {
  const fd = openSync(file, 'r');
  try {
    const header = Buffer.alloc(engineHeaderBytes);
    return engineBinary(header.subarray(0, readSync(fd, header, 0, header.length, 0)));
  } finally {
    closeSync(fd);
  }
}
