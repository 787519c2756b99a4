/** `orch-controller-manager`: the controllers as their own process (see orch-controller-manager-main.ts). */
import { main } from './orch-controller-manager-main.js';

await main(process.argv.slice(2));
