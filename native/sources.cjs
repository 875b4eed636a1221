// Prints the C++ sources of the named backend folders (src/<name>/*.cc), for binding.gyp and the
// mingw compile check: a new backend file is picked up without editing the build files.
const fs = require('node:fs');
const path = require('node:path');

const files = [];
for (const folder of process.argv.slice(2)) {
  const dir = path.join(__dirname, 'src', folder);
  if (!fs.existsSync(dir)) continue;
  for (const name of fs.readdirSync(dir).sort()) {
    if (name.endsWith('.cc')) files.push(`src/${folder}/${name}`);
  }
}
process.stdout.write(files.join(' '));
