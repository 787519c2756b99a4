// Installs what is missing and builds, so `npm start` and `npm test` work on a fresh clone.
// Uses only Node built-ins: it runs before node_modules exists.
import { execSync } from 'node:child_process';
import { existsSync, statSync, readdirSync } from 'node:fs';
import { join } from 'node:path';

const root = new URL('..', import.meta.url).pathname;
const force = process.argv.includes('--force');
const run = (cmd) => execSync(cmd, { cwd: root, stdio: 'inherit' });

function newestMtime(dir) {
  let newest = 0;
  for (const entry of readdirSync(join(root, dir), { withFileTypes: true })) {
    const p = join(dir, entry.name);
    newest = Math.max(newest, entry.isDirectory() ? newestMtime(p) : statSync(join(root, p)).mtimeMs);
  }
  return newest;
}

const lock = join(root, 'package-lock.json');
const installed = join(root, 'node_modules', '.package-lock.json');
if (!existsSync(installed) || statSync(installed).mtimeMs < statSync(lock).mtimeMs) {
  run('npm ci --no-audit --no-fund');
}
const stamp = join(root, 'dist', '.build-stamp');
const sources = Math.max(...['src', 'test', 'bench'].filter((d) => existsSync(join(root, d))).map(newestMtime));
if (force || !existsSync(stamp) || statSync(stamp).mtimeMs < sources) {
  run('npx tsc -p tsconfig.json');
  execSync(`touch ${stamp}`);
}
