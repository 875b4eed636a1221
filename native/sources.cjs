// Prints the C++ sources of the named backend folders (src/<name>/*.cc), for the two .gyp files
// (native/binding.gyp, native/front/binding.gyp) and the mingw compile check, as paths from the
// working folder: a new backend file is picked up without editing the build files.
//
// `--plain` keeps only the sources free of N-API (none of their includes, followed through the
// project's own headers, reaches <napi.h>): what the front door executable bin/plumb can link.
const fs = require('node:fs');
const path = require('node:path');

const src = path.join(__dirname, 'src');
const args = process.argv.slice(2);
const plain = args.includes('--plain');

const napiFree = new Map(); // file (absolute) → whether it reaches no N-API header
function reachesNoNapi(file) {
  if (napiFree.has(file)) return napiFree.get(file);
  napiFree.set(file, true); // a header including itself in a cycle adds nothing
  let free = true;
  const text = fs.readFileSync(file, 'utf8');
  for (const [, name, local] of text.matchAll(/^\s*#\s*include\s*(?:<([^>]+)>|"([^"]+)")/gm)) {
    if (name !== undefined) {
      if (name === 'napi.h' || name === 'node_api.h') free = false;
      continue;
    }
    // Project headers are named from src/ ("common/errors.h") or beside the including file.
    const header = [path.join(src, local), path.join(path.dirname(file), local)].find((f) =>
      fs.existsSync(f),
    );
    if (header && !reachesNoNapi(header)) free = false;
    if (!free) break;
  }
  napiFree.set(file, free);
  return free;
}

const files = [];
for (const folder of args.filter((arg) => !arg.startsWith('--'))) {
  const dir = path.join(src, folder);
  if (!fs.existsSync(dir)) continue;
  for (const name of fs.readdirSync(dir).sort()) {
    if (!name.endsWith('.cc')) continue;
    if (plain && !reachesNoNapi(path.join(dir, name))) continue;
    // Relative to where the command runs: gyp runs it beside the .gyp file that names the sources.
    files.push(path.relative(process.cwd(), path.join(dir, name)).split(path.sep).join('/'));
  }
}
process.stdout.write(files.join(' '));
