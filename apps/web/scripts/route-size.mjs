// Gzip size (kB = 1000 bytes, as Vite prints) of the JS a route loads: the entry chunk, its static imports, and the route's lazy
// chunk with its static imports. Usage (after `npx vite build`): node scripts/route-size.mjs login-route
import { readFileSync } from 'node:fs';
import { gzipSync } from 'node:zlib';

const dist = new URL('../dist/', import.meta.url);
const manifest = JSON.parse(readFileSync(new URL('.vite/manifest.json', dist), 'utf8'));
const routes = process.argv.slice(2);

const files = new Set();
function add(key) {
  const chunk = manifest[key];
  if (!chunk || files.has(chunk.file)) return;
  files.add(chunk.file);
  for (const dep of chunk.imports ?? []) add(dep);
}
add('index.html');
for (const route of routes) {
  const key = Object.keys(manifest).find((k) => k.includes(`/${route}.tsx`));
  if (!key) throw new Error(`no chunk for ${route}`);
  add(key);
}
let total = 0;
for (const file of files) {
  const size = gzipSync(readFileSync(new URL(file, dist)), { level: 9 }).length;
  total += size;
  console.log(`${(size / 1000).toFixed(2).padStart(8)} kB  ${file}`);
}
console.log(`${(total / 1000).toFixed(2).padStart(8)} kB  total gzip JS for ${routes.join(', ') || 'entry'}`);
