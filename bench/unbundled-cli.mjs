// The CLI as it started before it was bundled: tsc's dist/ modules, loaded one by one by the ES
// module loader. bench/startup.mjs times it beside the bundled bin/ for comparison.
import { main } from '../dist/cli.js';

process.exitCode = await main(process.argv);
