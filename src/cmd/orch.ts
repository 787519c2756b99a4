/** `orch`: the all-in-one control plane (API server plus the controllers the API needs), `orch kubeconfig` and `orch migrate`. */
import { apiServerCommand } from './flags.js';
import { runServer } from './run.js';

if (process.argv[2] === 'kubeconfig') {
  const { runKubeconfigCommand } = await import('./kubeconfig-command.js');
  await runKubeconfigCommand(process.argv.slice(3));
} else if (process.argv[2] === 'migrate') {
  const { runMigrateCommand } = await import('./migrate-command.js');
  await runMigrateCommand(process.argv.slice(3));
} else {
  await runServer(apiServerCommand('orch', 'orch all-in-one control plane: API server and controllers in one process'), 'orch', true);
}
