// Starts one of orch's commands from dist/. On a clone that was never built, builds first
// (scripts/ensure-built.mjs, one line per step) instead of failing with ERR_MODULE_NOT_FOUND.
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

/** Imports dist/src/cmd/<command>.js, building it first when it is missing. */
export async function launch(command) {
  const entry = new URL(`../dist/src/cmd/${command}.js`, import.meta.url);
  if (!existsSync(entry)) {
    const ensureBuilt = fileURLToPath(new URL('../scripts/ensure-built.mjs', import.meta.url));
    if (!existsSync(ensureBuilt) || !existsSync(new URL('../src/', import.meta.url))) {
      console.error(`${command}: ${fileURLToPath(entry)} is missing and there is no source to build it from: reinstall orch`);
      process.exit(1);
    }
    console.error(`${command}: not built yet, building first (next time: npm run build)`);
    try {
      // --force: the stamp may be newer than the sources while dist/ was removed.
      execFileSync(process.execPath, [ensureBuilt, '--force'], { stdio: 'inherit' });
    } catch {
      console.error(`${command}: the build failed (see above); fix it, then run npm run build`);
      process.exit(1);
    }
  }
  await import(entry.href);
}
