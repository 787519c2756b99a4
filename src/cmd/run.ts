/** Runs a control plane until SIGTERM/SIGINT, printing the one ready line. */
import { relative } from 'node:path';
import type { Command } from 'commander';
import { startControlPlane } from './control-plane.js';
import { optionsFromFlags } from './flags.js';
import type { ControlPlaneOptions } from './control-plane-types.js';

/** Parses argv with cmd, starts, and stops gracefully on a signal. */
export async function runServer(cmd: Command, label: string, controllers: boolean): Promise<void> {
  cmd.parse(process.argv);
  let opts: ControlPlaneOptions;
  try {
    opts = optionsFromFlags(cmd.opts());
  } catch (e) {
    console.error(`error: ${e instanceof Error ? e.message : String(e)}`);
    process.exit(1);
  }
  const cp = await startControlPlane({ ...opts, controllers });
  const kubeconfig = relative(process.cwd(), cp.kubeconfigPath) || cp.kubeconfigPath;
  console.log(`${label} ready at ${cp.url} (kubeconfig: ${kubeconfig.startsWith('..') ? cp.kubeconfigPath : kubeconfig})`);
  const stop = (signal: string) => {
    console.log(`${label}: ${signal} received, shutting down`);
    cp.stop().then(
      () => process.exit(0),
      (e) => {
        console.error(e);
        process.exit(1);
      },
    );
  };
  process.once('SIGTERM', () => stop('SIGTERM'));
  process.once('SIGINT', () => stop('SIGINT'));
}
