// When a build is out of date, for `npm start` (scripts/start.mjs): one rule for the web app and
// the server bundle. A build is stale when it is missing or any file of its sources is newer
// than it (a pull, a checkout or an edit touches the files it changes).
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';

/**
 * The most recently modified file among `inputs` (files, or folders searched through), as
 * { path, mtimeMs }; null when there is none. An input that does not exist is skipped.
 */
export function newestFile(inputs) {
  let newest = null;
  const consider = (path, mtimeMs) => {
    if (!newest || mtimeMs > newest.mtimeMs) newest = { path, mtimeMs };
  };
  for (const input of inputs) {
    if (!existsSync(input)) continue;
    const stat = statSync(input);
    if (!stat.isDirectory()) consider(input, stat.mtimeMs);
    else
      for (const entry of readdirSync(input, { recursive: true, withFileTypes: true })) {
        if (!entry.isFile()) continue;
        const path = join(entry.parentPath, entry.name);
        consider(path, statSync(path).mtimeMs);
      }
  }
  return newest;
}

/**
 * Why `output` must be built again from `inputs`, in words with paths relative to `root`
 * ('apps/web/dist/index.html is missing', 'apps/web/src/main.tsx is newer than
 * apps/web/dist/index.html'); null when it is current.
 */
export function whyStale(output, inputs, root = process.cwd()) {
  const name = (path) => relative(root, path) || path;
  if (!existsSync(output)) return `${name(output)} is missing`;
  const newest = newestFile(inputs);
  if (newest && newest.mtimeMs > statSync(output).mtimeMs) return `${name(newest.path)} is newer than ${name(output)}`;
  return null;
}
