import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import sharp from 'sharp';
import { afterEach, describe, expect, it } from 'vitest';
import type { GenerateRequest, JobDetail } from '../../../shared/contract.js';
import { AppError } from '../../../shared/errors.js';
import type { Engine } from '../../../electron/engine/types.js';
import { toolFiles } from '../../fixtures/images/tool-files.js';
import {
  ALL_OPERATIONS,
  createScriptedProvider,
  scriptedEntry,
  type ScriptedProvider,
} from '../../fakes/scripted-provider.js';
import { startHarness, waitFor, waitForStatus, type Harness } from '../engine/harness.js';

const base = {
  provider: 'scripted',
  prompt: 'a lighthouse at dusk',
  width: 96,
  height: 64,
  count: 1,
  seed: 3,
} as const;

let h: Harness;
let outside: string | undefined;
afterEach(async () => {
  await h?.cleanup();
  if (outside !== undefined) rmSync(outside, { recursive: true, force: true });
  outside = undefined;
});

async function engineWith(provider: ScriptedProvider): Promise<Engine> {
  h = await startHarness({ providers: [scriptedEntry(provider)] });
  return h.engine;
}

async function generated(engine: Engine, request: GenerateRequest = base): Promise<JobDetail> {
  const { job } = await engine.handlers['jobs.submit'](request);
  return waitForStatus(engine, job.id, ['succeeded']);
}

const fileBytes = (engine: Engine, imageId: string): Buffer =>
  readFileSync(engine.resolveMedia('image', imageId)!.path);

async function rejection(promise: Promise<unknown>): Promise<AppError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(AppError);
  return error as AppError;
}

/** A w×h mask PNG: white inside the rectangle, transparent elsewhere (as a canvas brush leaves it). */
async function maskPng(w: number, h: number, rect: { x: number; y: number; w: number; h: number }): Promise<string> {
  const rgba = Buffer.alloc(w * h * 4);
  for (let y = rect.y; y < rect.y + rect.h; y += 1) {
    for (let x = rect.x; x < rect.x + rect.w; x += 1) rgba.fill(255, (y * w + x) * 4, (y * w + x) * 4 + 4);
  }
  return (
    await sharp(rgba, { raw: { width: w, height: h, channels: 4 } })
      .png()
      .toBuffer()
  ).toString('base64');
}

const searchIds = async (engine: Engine, search: string): Promise<string[]> =>
  (await engine.handlers['jobs.list']({ limit: 60, view: 'active', search })).items.map((j) => j.id);

describe('working from an image: what the provider gets, and lineage', () => {
  it("sends the source image's own bytes, records where a job came from, and finds it after a restart", async () => {
    const provider = createScriptedProvider();
    provider.operations = ALL_OPERATIONS;
    const engine = await engineWith(provider);
    const source = await generated(engine);
    const imageId = source.images[0]!.id;

    const { job } = await engine.handlers['jobs.submit']({
      ...base,
      prompt: 'the lighthouse in snow',
      inputImage: { imageId, strength: 0.4 },
    });
    const done = await waitForStatus(engine, job.id, ['succeeded']);
    const given = provider.inputs.at(-1);
    expect(Buffer.from(given!.image!.data).equals(fileBytes(engine, imageId))).toBe(true);
    expect(given!.image).toMatchObject({ width: 96, height: 64, mime: 'image/png' });
    expect(given!.mask).toBeUndefined();
    expect(provider.calls.at(-1)!.inputImage).toEqual({ imageId, strength: 0.4 });
    expect(done).toMatchObject({ operation: 'img2img', parentImageId: imageId, parentJobId: source.id });
    // A text job records neither.
    expect(source.operation).toBeUndefined();
    expect(source.parentImageId).toBeUndefined();
    expect(provider.inputs[0]).toBeUndefined();

    const variation = await generated(engine, { ...base, seed: 9, count: 2, variationOf: { imageId } });
    expect(variation).toMatchObject({ operation: 'variation', parentImageId: imageId });
    expect(provider.inputs.at(-1)).toBeUndefined();

    expect((await searchIds(engine, `from:${imageId}`)).sort()).toEqual([job.id, variation.id].sort());
    expect((await searchIds(engine, 'is:derived')).sort()).toEqual([job.id, variation.id].sort());
    expect(await searchIds(engine, '-is:derived')).toEqual([source.id]);

    await engine.close({ graceMs: 0 });
    const again = await h.open({ providers: [scriptedEntry(createScriptedProvider())] });
    expect(await again.handlers['jobs.get']({ id: job.id })).toMatchObject({
      operation: 'img2img',
      parentImageId: imageId,
    });
    expect((await searchIds(again, `from:${imageId}`)).sort()).toEqual([job.id, variation.id].sort());
    // The source purged for good: the lineage stays, the job that held it is no longer named.
    await again.handlers['jobs.trash']({ ids: [source.id] });
    await again.handlers['jobs.purge']({ ids: [source.id] });
    const orphan = await again.handlers['jobs.get']({ id: job.id });
    expect(orphan.parentImageId).toBe(imageId);
    expect(orphan.parentJobId).toBeUndefined();
  });

  it("keeps lineage when the history is rebuilt from the images' own embedded settings", async () => {
    const provider = createScriptedProvider();
    provider.operations = ALL_OPERATIONS;
    const engine = await engineWith(provider);
    const source = await generated(engine);
    const imageId = source.images[0]!.id;
    const derived = await generated(engine, {
      ...base,
      prompt: 'the lighthouse at night',
      inputImage: { imageId, strength: 0.6 },
    });
    await engine.close({ graceMs: 0 });
    for (const f of ['atelier.db', 'atelier.db-wal', 'atelier.db-shm']) rmSync(join(h.dataDir, f), { force: true });

    const again = await h.open({ providers: [scriptedEntry(createScriptedProvider())] });
    await waitFor(async () =>
      (await again.handlers['jobs.stats']({})).recovery.state === 'needed' ? true : undefined,
    );
    expect(await again.handlers['library.rebuild']({})).toMatchObject({ jobs: 2, images: 2 });
    const rebuilt = (await again.handlers['jobs.list']({ limit: 10, view: 'active', search: 'is:derived' })).items;
    expect(rebuilt.map((j) => [j.prompt, j.operation, j.parentImageId])).toEqual([
      [derived.prompt, 'img2img', imageId],
    ]);
  });

  it('saves a painted mask as 8-bit gray at the source size and sends it with the image; refuses masks that do not fit', async () => {
    const provider = createScriptedProvider();
    provider.operations = ALL_OPERATIONS;
    const engine = await engineWith(provider);
    const source = await generated(engine);
    const other = await generated(engine, { ...base, seed: 4 });
    const imageId = source.images[0]!.id;

    const saved = await engine.handlers['images.saveMask']({
      imageId,
      png: await maskPng(96, 64, { x: 16, y: 8, w: 32, h: 24 }),
    });
    expect(saved).toMatchObject({ width: 96, height: 64, coverage: (32 * 24) / (96 * 64) });
    const { job } = await engine.handlers['jobs.submit']({
      ...base,
      inputImage: { imageId },
      mask: { imageId: saved.maskId },
    });
    const done = await waitForStatus(engine, job.id, ['succeeded']);
    expect(done).toMatchObject({ operation: 'inpaint', parentImageId: imageId });
    const sent = provider.inputs.at(-1)!;
    expect(Buffer.from(sent.image!.data).equals(fileBytes(engine, imageId))).toBe(true);
    expect(await sharp(Buffer.from(sent.mask!.data)).metadata()).toMatchObject({
      format: 'png',
      width: 96,
      height: 64,
      channels: 1,
      space: 'b-w',
    });
    const data = await sharp(Buffer.from(sent.mask!.data)).toColourspace('b-w').raw().toBuffer();
    expect(data[8 * 96 + 16]).toBe(255);
    expect(data[31 * 96 + 47]).toBe(255);
    expect(data[7 * 96 + 16]).toBe(0);
    expect(data[8 * 96 + 48]).toBe(0);

    // The wrong size, nothing painted, not a PNG, painted over another image: each refused, nothing queued.
    const before = (await engine.handlers['jobs.stats']({})).total;
    expect(
      (
        await rejection(
          engine.handlers['images.saveMask']({ imageId, png: await maskPng(32, 32, { x: 0, y: 0, w: 4, h: 4 }) }),
        )
      ).message,
    ).toMatch(/32×32 but its image is 96×64/);
    expect(
      (
        await rejection(
          engine.handlers['images.saveMask']({ imageId, png: await maskPng(96, 64, { x: 0, y: 0, w: 0, h: 0 }) }),
        )
      ).message,
    ).toMatch(/empty/);
    expect(
      (
        await rejection(
          engine.handlers['images.saveMask']({ imageId, png: Buffer.from('not an image').toString('base64') }),
        )
      ).message,
    ).toMatch(/not a PNG/);
    const misplaced = await rejection(
      engine.handlers['jobs.submit']({
        ...base,
        inputImage: { imageId: other.images[0]!.id },
        mask: { imageId: saved.maskId },
      }),
    );
    expect(misplaced).toMatchObject({
      code: 'invalid_request',
      message: 'That mask was painted over a different image.',
    });
    expect((await engine.handlers['jobs.stats']({})).total).toBe(before);
  });

  it('refuses conflicting parts, a missing source and an operation the provider cannot do, before anything is stored', async () => {
    const provider = createScriptedProvider();
    const engine = await engineWith(provider);
    const source = await generated(engine);
    const imageId = source.images[0]!.id;
    const before = (await engine.handlers['jobs.stats']({})).total;

    const textOnly = await rejection(engine.handlers['jobs.submit']({ ...base, inputImage: { imageId } }));
    expect(textOnly).toMatchObject({
      code: 'invalid_request',
      message: 'Scripted scripted cannot work from an image: This provider works from text only here.',
    });
    expect(textOnly.details).toMatchObject({ fields: { inputImage: textOnly.message } });
    expect(
      (await rejection(engine.handlers['jobs.submit']({ ...base, upscale: { imageId, factor: 2 } }))).message,
    ).toMatch(/cannot upscale/);

    provider.operations = ALL_OPERATIONS;
    const cases: Array<[Partial<GenerateRequest>, RegExp]> = [
      [{ upscale: { imageId, factor: 2 }, inputImage: { imageId } }, /upscale works on its own image/],
      [{ upscale: { imageId, factor: 4 }, count: 2 }, /set count to 1/],
      [{ mask: { imageId } }, /A mask needs the image it paints over/],
      [{ inputImage: { imageId }, variationOf: { imageId } }, /either an input image or variationOf/],
      [{ inputImage: { imageId: '0190a6e2-0000-7000-8000-000000000000' } }, /no longer in the library/],
      [{ variationOf: { imageId: '0190a6e2-0000-7000-8000-000000000000' } }, /nothing to vary/],
      [{ inputImage: { imageId }, mask: { imageId: '0190a6e2-0000-7000-8000-000000000001' } }, /not one Atelier saved/],
    ];
    for (const [extra, message] of cases) {
      const error = await rejection(engine.handlers['jobs.submit']({ ...base, ...extra }));
      expect(error.code).toBe('invalid_request');
      expect(error.message).toMatch(message);
    }
    expect((await engine.handlers['jobs.stats']({})).total).toBe(before);

    const upscaled = await generated(engine, { ...base, upscale: { imageId, factor: 2 } });
    expect(upscaled).toMatchObject({ operation: 'upscale', parentImageId: imageId });
    expect(Buffer.from(provider.inputs.at(-1)!.image!.data).equals(fileBytes(engine, imageId))).toBe(true);
  });

  it('works from an imported original by reading it, never changing it, and refuses one edited since it was imported', async () => {
    const provider = createScriptedProvider();
    provider.operations = ALL_OPERATIONS;
    const engine = await engineWith(provider);
    outside = mkdtempSync(join(tmpdir(), 'atelier-outputs-'));
    const [file] = await toolFiles('lineage');
    mkdirSync(join(outside, 'in'));
    const path = join(outside, 'in', file!.name);
    writeFileSync(path, file!.bytes);
    const { import: started } = await engine.handlers['library.import']({
      paths: [join(outside, 'in')],
      mode: 'link',
      watch: false,
    });
    await waitFor(
      async () =>
        (await engine.handlers['library.imports']({})).items.find((i) => i.id === started.id && i.status !== 'running'),
      20_000,
    );
    const imported = (await engine.handlers['jobs.list']({ limit: 10, view: 'active' })).items[0]!;
    const imageId = imported.images[0]!.id;

    const done = await generated(engine, { ...base, inputImage: { imageId } });
    expect(done).toMatchObject({ operation: 'img2img', parentImageId: imageId });
    expect(Buffer.from(provider.inputs.at(-1)!.image!.data).equals(Buffer.from(file!.bytes))).toBe(true);
    expect(readFileSync(path).equals(Buffer.from(file!.bytes))).toBe(true);

    // Another tool rewrote the file: Atelier will not send pixels it never stored, and leaves the file as it is.
    const edited = Buffer.concat([Buffer.from(file!.bytes), Buffer.from('extra')]);
    writeFileSync(path, edited);
    const { job } = await engine.handlers['jobs.submit']({ ...base, seed: 11, inputImage: { imageId } });
    const failed = await waitForStatus(engine, job.id, ['failed']);
    expect(failed.error).toMatchObject({
      code: 'conflict',
      message: expect.stringMatching(/changed since Atelier stored it/),
    });
    expect(readFileSync(path).equals(edited)).toBe(true);
  });
});
