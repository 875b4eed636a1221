// Build-time probe for binding.gyp: prints gyp flags for the Linux async I/O interfaces found
// here: io_uring (liburing, linked statically where liburing.a exists) and Linux AIO (the
// kernel's aio_abi.h; called directly, no library). `node probe-io.cjs defines|libraries`.
// Set PLUMB_NO_URING=1 or PLUMB_NO_LIBAIO=1 to build without one (the threads engine remains).
const fs = require('node:fs');
const path = require('node:path');

const includeDirs = ['/usr/include', '/usr/local/include'];
const libDirs = [
  '/usr/lib/x86_64-linux-gnu',
  '/usr/lib/aarch64-linux-gnu',
  '/usr/lib64',
  '/usr/lib',
  '/usr/local/lib',
];

function find(dirs, name) {
  return dirs.map((dir) => path.join(dir, name)).find((file) => fs.existsSync(file));
}

const found = [];
for (const [define, header, lib, off] of [
  ['PLUMB_HAVE_LIBURING', 'liburing.h', 'uring', 'PLUMB_NO_URING'],
  ['PLUMB_HAVE_LIBAIO', 'linux/aio_abi.h', null, 'PLUMB_NO_LIBAIO'],
]) {
  if (process.platform !== 'linux' || process.env[off] === '1' || !find(includeDirs, header))
    continue;
  if (!lib) {
    found.push({ define, link: '' });
    continue;
  }
  // The static library keeps the addon free of a runtime dependency the user may not have.
  const archive = find(libDirs, `lib${lib}.a`);
  const shared = find(libDirs, `lib${lib}.so`);
  if (!archive && !shared) continue;
  found.push({ define, link: archive ?? `-l${lib}` });
}
const what = process.argv[2];
process.stdout.write(
  found
    .map((f) => (what === 'defines' ? f.define : f.link))
    .filter(Boolean)
    .join(' ') || (what === 'defines' ? 'PLUMB_NO_ASYNC_IO_LIBRARIES' : ''),
);
