/** `orch-scheduler`: the scheduler as its own process (see orch-scheduler-main.ts). */
import { main } from './orch-scheduler-main.js';

await main(process.argv.slice(2));
