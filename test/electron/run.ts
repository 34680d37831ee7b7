/** The CLI behind `npm run test:electron` (see runner.ts). */
import { runElectronTests, spawnStep } from './runner.js';

process.exitCode = await runElectronTests(process.argv.slice(2), {
  env: process.env,
  print: (line) => process.stdout.write(`${line}\n`),
  exec: spawnStep,
});
