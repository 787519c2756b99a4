// Installs what is missing and builds, so `npm start` and `npm test` work on a fresh clone.
// Uses only Node built-ins: it runs before node_modules exists.
import { execSync } from 'node:child_process';
import { existsSync, statSync, readdirSync } from 'node:fs';
import { join } from 'node:path';

const root = new URL('..', import.meta.url).pathname;
const force = process.argv.includes('--force');
// One line per step, so a first `npm start`/`npm test` says what it is doing while it waits.
const step = (what, cmd) => {
  process.stderr.write(`orch: ${what} (${cmd})...\n`);
  try {
    execSync(cmd, { cwd: root, stdio: 'inherit' });
  } catch {
    // The command printed why; a Node stack on top would only bury it.
    process.stderr.write(`orch: ${what} failed (see above)\n`);
    process.exit(1);
  }
};

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
  step('installing dependencies', 'npm ci --no-audit --no-fund --loglevel=error');
}
const stamp = join(root, 'dist', '.build-stamp');
const sources = Math.max(...['src', 'test', 'bench'].filter((d) => existsSync(join(root, d))).map(newestMtime));
if (force || !existsSync(stamp) || statSync(stamp).mtimeMs < sources) {
  step('building', 'npx tsc -p tsconfig.json');
  execSync(`touch ${stamp}`);
}
