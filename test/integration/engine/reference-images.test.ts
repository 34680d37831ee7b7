import { afterEach, describe, expect, it } from 'vitest';
import { defaultProviders } from '../../../electron/engine/default-providers.js';
import { sniffImage } from '../../../electron/providers/http/image.js';
import { readFileSync } from 'node:fs';
import { startFakeBfl, type FakeBfl } from '../../fakes/bfl.js';
import { startFakeGemini, type FakeGemini } from '../../fakes/gemini.js';
import { startHarness, waitForStatus, type Harness } from './harness.js';

const GEMINI_KEY = 'AIza-reference-key-0123456789';
const BFL_KEY = 'bfl-reference-key-0123456789';

let h: Harness | undefined;
let gemini: FakeGemini | undefined;
let bfl: FakeBfl | undefined;
afterEach(async () => {
  await h?.cleanup();
  await gemini?.close();
  await bfl?.close();
  h = undefined;
});

/** Library images made by the built-in generator, each a different size so each is told apart by its bytes. */
async function libraryImages(harness: Harness, sides: number[]): Promise<Array<{ id: string; bytes: Buffer }>> {
  const out: Array<{ id: string; bytes: Buffer }> = [];
  for (const side of sides) {
    const { job } = await harness.engine.handlers['jobs.submit']({
      provider: 'builtin',
      prompt: `reference ${side}`,
      width: side,
      height: side,
      count: 1,
    });
    const done = await waitForStatus(harness.engine, job.id, ['succeeded']);
    const id = done.images[0]!.id;
    out.push({ id, bytes: readFileSync(harness.engine.resolveMedia('image', id)!.path) });
  }
  return out;
}

async function setUp(): Promise<Harness> {
  gemini = await startFakeGemini({ apiKey: GEMINI_KEY });
  bfl = await startFakeBfl({ apiKey: BFL_KEY });
  bfl.setScenario({ kind: 'success', pendingPolls: 0 });
  h = await startHarness({ providers: defaultProviders() });
  await h.engine.handlers['settings.update']({
    providers: {
      gemini: { apiKey: GEMINI_KEY, baseUrl: gemini.url },
      bfl: { apiKey: BFL_KEY, baseUrl: bfl.url },
    },
  });
  return h;
}

const b64 = (bytes: Buffer) => bytes.toString('base64');

describe('reference images', () => {
  it('go to Gemini as inlineData parts after the prompt, in the order chosen, read from the library', async () => {
    const harness = await setUp();
    const [a, b] = await libraryImages(harness, [64, 96]);
    const { job } = await harness.engine.handlers['jobs.submit']({
      provider: 'gemini',
      model: 'gemini-3-pro-image-preview',
      prompt: 'the cat from the first image in the room of the second',
      width: 1024,
      height: 1024,
      count: 1,
      referenceImages: [{ imageId: b!.id }, { imageId: a!.id }],
    });
    const done = await waitForStatus(harness.engine, job.id, ['succeeded', 'failed']);
    expect(done.errorDetail?.message ?? done.status).toBe('succeeded');
    const body = gemini!.generationRequests()[0]!.json as {
      contents: Array<{ parts: Array<{ text?: string; inlineData?: { data: string } }> }>;
    };
    const parts = body.contents[0]!.parts;
    expect(parts[0]!.text).toMatch(/^the cat/);
    expect(parts.slice(1).map((p) => p.inlineData?.data)).toEqual([b64(b!.bytes), b64(a!.bytes)]);
    expect(done.request.referenceImages).toEqual([{ imageId: b!.id }, { imageId: a!.id }]);
    const detail = await harness.engine.handlers['jobs.get']({ id: job.id });
    expect(detail.events.some((e) => e.kind === 'input' && /2 reference images/.test(e.message))).toBe(true);
    expect(sniffImage(readFileSync(harness.engine.resolveMedia('image', done.images[0]!.id)!.path))?.mime).toBe(
      'image/png',
    );
  });

  it('go to FLUX.2 after the edited image, as input_image_2 and on', async () => {
    const harness = await setUp();
    const [source, ref1, ref2] = await libraryImages(harness, [64, 80, 96]);
    const { job } = await harness.engine.handlers['jobs.submit']({
      provider: 'bfl',
      model: 'flux-2-pro',
      prompt: 'put the hat from the references on her',
      width: 1024,
      height: 1024,
      count: 1,
      inputImage: { imageId: source!.id },
      referenceImages: [{ imageId: ref1!.id }, { imageId: ref2!.id }],
    });
    const done = await waitForStatus(harness.engine, job.id, ['succeeded', 'failed']);
    expect(done.errorDetail?.message ?? done.status).toBe('succeeded');
    const sent = bfl!.submits()[0]!.json as Record<string, string>;
    expect([sent.input_image, sent.input_image_2, sent.input_image_3]).toEqual([
      b64(source!.bytes),
      b64(ref1!.bytes),
      b64(ref2!.bytes),
    ]);
    expect(sent.input_image_4).toBeUndefined();
  });

  it('are refused before anything is stored or sent where the model takes none or fewer', async () => {
    const harness = await setUp();
    const refs = await libraryImages(harness, [64, 72, 80, 88]);
    const base = { prompt: 'a composite', width: 1024, height: 1024, count: 1 };
    await expect(
      harness.engine.handlers['jobs.submit']({
        ...base,
        provider: 'builtin',
        width: 256,
        height: 256,
        referenceImages: [{ imageId: refs[0]!.id }],
      }),
    ).rejects.toMatchObject({ code: 'invalid_request', message: expect.stringMatching(/takes no reference images/) });
    await expect(
      harness.engine.handlers['jobs.submit']({
        ...base,
        provider: 'gemini',
        model: 'gemini-2.5-flash-image',
        referenceImages: refs.map((r) => ({ imageId: r.id })),
      }),
    ).rejects.toMatchObject({
      code: 'invalid_request',
      message: expect.stringMatching(/at most 3 reference images; this job has 4/),
      details: { fields: { referenceImages: expect.any(String) } },
    });
    await expect(
      harness.engine.handlers['jobs.submit']({
        ...base,
        provider: 'gemini',
        model: 'gemini-3-pro-image-preview',
        referenceImages: [{ imageId: '0190a6e2-0000-7000-8000-00000000dead' }],
      }),
    ).rejects.toMatchObject({ code: 'invalid_request', message: expect.stringMatching(/no longer in the library/) });
    expect(gemini!.generationRequests()).toHaveLength(0);
  });
});
