import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { recordingContext, rejectsWith, request, visible } from '../integration/providers/helpers.js';
import { call } from './contract/wire.js';
import { cfgFor, provider, serverHistory } from './helpers.js';
import { type RealComfy, startComfy } from './kit.js';
import { writeTinyLora } from './tiny-lora.js';

/**
 * A real server of its own with a LoRAs folder (a tiny valid .safetensors, added by --extra-model-paths-config, as
 * people add a shared models folder): the default graph's LoraLoader chain runs on it.
 */
const LORA = 'atelier-tiny-lora.safetensors';
let server: RealComfy;
let models: string;

beforeAll(async () => {
  models = await mkdtemp(join(tmpdir(), 'atelier-real-loras-'));
  await mkdir(join(models, 'loras'));
  await writeTinyLora(join(models, 'loras', LORA));
  const yaml = join(models, 'extra_model_paths.yaml');
  await writeFile(yaml, `atelier_test:\n  base_path: ${JSON.stringify(models)}\n  loras: loras\n`);
  server = await startComfy({ previews: false, extraArgs: ['--extra-model-paths-config', yaml] });
});
afterAll(async () => {
  await server?.stop();
  await rm(models, { recursive: true, force: true });
});

describe('LoRAs on a real ComfyUI', () => {
  it('/object_info lists the LoRA, and a job with it runs through the default graph’s LoraLoader', async () => {
    const info = (await call(server.url, 'GET', '/object_info/LoraLoader')).json as {
      LoraLoader: { input: { required: { lora_name: [string[]] } } };
    };
    expect(info.LoraLoader.input.required.lora_name[0]).toEqual([LORA]);

    const out = await provider.generate(
      request({ width: 64, height: 64, steps: 2, seed: 7, loras: [{ name: LORA, weight: 0.8 }] }),
      cfgFor(server.url),
      recordingContext(),
    );
    expect(out.images.map((i) => [i.mime, i.width, i.height])).toEqual([['image/png', 64, 64]]);
    const history = await serverHistory(server.url, String(out.info?.promptId));
    expect(history?.status.status_str).toBe('success');
    // The server's own record of what ran: [number, id, graph, …].
    const graph = (
      history as unknown as {
        prompt: [number, string, Record<string, { class_type: string; inputs: Record<string, unknown> }>];
      }
    ).prompt[2];
    const loader = Object.values(graph).find((n) => n.class_type === 'LoraLoader');
    expect(loader?.inputs).toMatchObject({ lora_name: LORA, strength_model: 0.8, strength_clip: 0.8 });
  });

  it('a LoRA the server does not have is refused by its own validation, named', async () => {
    const error = await rejectsWith(
      provider.generate(
        request({ width: 64, height: 64, steps: 2, loras: [{ name: 'not-here.safetensors', weight: 1 }] }),
        cfgFor(server.url),
        recordingContext(),
      ),
      'provider_rejected',
    );
    expect(visible(error)).toContain('not-here.safetensors');
  });
});
