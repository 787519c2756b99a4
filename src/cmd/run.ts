/** Runs a control plane until SIGTERM/SIGINT, printing the one ready line. */
import { relative } from 'node:path';
import type { Command } from 'commander';
import { startControlPlane } from './control-plane.js';
import type { ControlPlane } from './control-plane-types.js';
import { optionsFromFlags } from './flags.js';
import { startupErrorLine } from './startup-errors.js';
import { normalizeArgs } from './component-flags.js';
import { loggingFromFlags } from './scheduler-options.js';
import { klog } from '../machinery/klog.js';

/**
 * Parses argv with cmd, starts, and stops gracefully on a signal. A flag commander refuses
 * exits 1 with commander's one line; any other start-up failure exits 1 with one line naming
 * the problem and its fix, never a stack trace.
 */
export async function runServer(cmd: Command, label: string, controllers: boolean): Promise<void> {
  // pflag's spellings (`-v=3`, `--log_dir`) as the other components accept them.
  cmd.parse(normalizeArgs(process.argv.slice(2)), { from: 'user' });
  let cp: ControlPlane;
  try {
    klog.configure(loggingFromFlags(cmd.opts(), label));
    // Only `orch` defines --disable-scheduler; `orch-apiserver` runs neither controllers nor scheduler.
    const scheduler = controllers && cmd.opts<{ disableScheduler?: boolean }>().disableScheduler !== true;
    cp = await startControlPlane({ ...optionsFromFlags(cmd.opts()), controllers, scheduler });
  } catch (e) {
    // Under `npm start` flags reach the binary only after `--`.
    console.error(startupErrorLine(e, process.env.npm_lifecycle_event === 'start' ? 'npm start --' : label));
    process.exit(1);
  }
  const stop = (signal: string) => {
    console.log(`${label}: ${signal} received, shutting down`);
    cp.stop().then(
      () => process.exit(0),
      (e) => {
        console.error(startupErrorLine(e).replace(/^error: /, `error: shutting down: `));
        process.exit(1);
      },
    );
  };
  process.once('SIGTERM', () => stop('SIGTERM'));
  process.once('SIGINT', () => stop('SIGINT'));
  // Printed only once the handlers are in place: whoever waits for this line may signal at once.
  const kubeconfig = relative(process.cwd(), cp.kubeconfigPath) || cp.kubeconfigPath;
  console.log(`${label} ready at ${cp.url} (kubeconfig: ${kubeconfig.startsWith('..') ? cp.kubeconfigPath : kubeconfig})`);
}
