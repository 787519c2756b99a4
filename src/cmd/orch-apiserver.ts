/** `orch-apiserver`: the API server alone. */
import { apiServerCommand } from './flags.js';
import { runServer } from './run.js';

await runServer(apiServerCommand('orch-apiserver', 'orch API server: the cluster resource API over HTTPS'), 'orch-apiserver', false);
