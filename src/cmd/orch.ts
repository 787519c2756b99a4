/** `orch`: the all-in-one control plane (API server plus the controllers the API needs). */
import { apiServerCommand } from './flags.js';
import { runServer } from './run.js';

await runServer(apiServerCommand('orch', 'orch all-in-one control plane: API server and controllers in one process'), 'orch', true);
