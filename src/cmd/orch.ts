/** `orch`: the all-in-one control plane (API server, the controllers the API needs, the scheduler), `orch kubeconfig` and `orch migrate`. */
import { apiServerCommand } from './flags.js';
import { runServer } from './run.js';

if (process.argv[2] === 'kubeconfig') {
  const { runKubeconfigCommand } = await import('./kubeconfig-command.js');
  await runKubeconfigCommand(process.argv.slice(3));
} else if (process.argv[2] === 'migrate') {
  const { runMigrateCommand } = await import('./migrate-command.js');
  await runMigrateCommand(process.argv.slice(3));
} else {
  const cmd = apiServerCommand('orch', 'orch all-in-one control plane: API server, controllers and scheduler in one process').option(
    '--disable-scheduler',
    'do not run the scheduler in-process (run orch-scheduler separately, or none)',
    false,
  );
  await runServer(cmd, 'orch', true);
}
