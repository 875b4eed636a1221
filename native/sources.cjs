// Prints the C++ sources of the named backend folders (src/<name>/*.cc), for native/binding.gyp
// and the mingw compile check, as paths from the working folder: a new backend file is picked up
// without editing the build files.
const fs = require('node:fs');
const path = require('node:path');

const src = path.join(__dirname, 'src');
const files = [];
for (const folder of process.argv.slice(2)) {
  const dir = path.join(src, folder);
  if (!fs.existsSync(dir)) continue;
  for (const name of fs.readdirSync(dir).sort()) {
    if (!name.endsWith('.cc')) continue;
    // Relative to where the command runs: gyp runs it beside the .gyp file that names the sources.
    files.push(path.relative(process.cwd(), path.join(dir, name)).split(path.sep).join('/'));
  }
}
process.stdout.write(files.join(' '));
