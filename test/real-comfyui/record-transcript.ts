import { writeFile } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { runContract } from './contract/scenarios.js';
import { setupKit, startComfy } from './kit.js';

/**
 * Records the contract transcript from a real ComfyUI into test/fixtures/comfyui-real-transcript.json, which the
 * fake is checked against (test/integration/providers/comfyui-contract.test.ts).
 *   npx tsx test/real-comfyui/record-transcript.ts            # sets up the kit, starts its own server, stops it
 *   COMFY_URL=http://127.0.0.1:8188 npx tsx test/real-comfyui/record-transcript.ts   # a server already running
 */
export const TRANSCRIPT = join(dirname(fileURLToPath(import.meta.url)), '../fixtures/comfyui-real-transcript.json');

async function main(): Promise<void> {
  const given = process.env.COMFY_URL;
  let stop = async () => undefined as unknown;
  let base = given;
  if (base === undefined) {
    await setupKit((line) => console.log(line));
    const server = await startComfy({ previews: true });
    stop = server.stop;
    base = server.url;
  }
  try {
    const run = await runContract(base, (line) => console.log(line));
    const transcript = {
      comfyuiVersion: run.version,
      recordedBy: 'test/real-comfyui/record-transcript.ts',
      server: 'shared/tools/real-comfyui (start.sh: --cpu --preview-method auto)',
      objectInfo: run.objectInfo,
      facts: run.facts,
    };
    await writeFile(resolve(TRANSCRIPT), `${JSON.stringify(transcript, null, 1)}\n`);
    console.log(`wrote ${TRANSCRIPT}`);
  } finally {
    await stop();
  }
}

if (process.argv[1] !== undefined && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  main().catch((error: unknown) => {
    console.error(error);
    process.exit(1);
  });
}
