// The floor a warm scan is held to: walk folders and stat every .jsonl in them, nothing read.
//   node bench/stat-walk.mjs <folder>…   → {"files": n}
import fs from 'node:fs';
import path from 'node:path';

let files = 0;
const walk = (dir) => {
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) walk(full);
    else if (entry.name.endsWith('.jsonl')) {
      fs.statSync(full);
      files += 1;
    }
  }
};
for (const dir of process.argv.slice(2)) walk(dir);
console.log(JSON.stringify({ files }));
