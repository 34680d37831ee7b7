/**
 * Working from an image in the browser: Use as input (I) fills the composer's strip and the next Generate sends the
 * image and its strength; Variations (V) and Upscale send their requests; Edit (E) opens the mask brush, a painted
 * stroke becomes a mask PNG of the source's size and a masked edit; lineage shows both ways; a provider that works
 * from text only disables the buttons and says why.
 */
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { JobDetail } from '../../shared/contract.js';
import { screenshot, openApp, type App } from './harness.js';
import { apiCall, expectGrid, search, waitFor } from './helpers.js';

const SOURCE = 'a lighthouse on a cliff at dusk';

let app: App;
let sourceJob: string;
let sourceImage: string;

const known = new Set<string>();

/** The one job the last action queued (any job not seen before), with its stored request. */
async function nextJob(what: string): Promise<JobDetail> {
  let found: string | undefined;
  await waitFor(async () => {
    const page = await apiCall(app.host, 'jobs.list', { limit: 50, view: 'all' });
    const fresh = page.items.filter((j) => !known.has(j.id));
    if (fresh.length > 1) throw new Error(`${what}: ${fresh.length} jobs queued, expected one`);
    found = fresh[0]?.id;
    return found !== undefined;
  }, what);
  known.add(found!);
  return apiCall(app.host, 'jobs.get', { id: found! });
}

/** The job once it has ended. */
async function finished(id: string): Promise<JobDetail> {
  let job: JobDetail | undefined;
  await waitFor(
    async () =>
      ['succeeded', 'failed', 'cancelled'].includes((job = await apiCall(app.host, 'jobs.get', { id })).status),
    `job ${id} to end`,
    60_000,
  );
  return job!;
}

/** Every job finished, and the grid showing all of them. */
async function settled(): Promise<void> {
  await waitFor(
    async () =>
      (await apiCall(app.host, 'jobs.list', { limit: 50, view: 'all' })).items.every((j) =>
        ['succeeded', 'failed', 'cancelled'].includes(j.status),
      ),
    'every job to finish',
  );
  await waitFor(
    async () => (await app.page.locator('.card-open').count()) === known.size,
    'the grid to show every job',
  );
}

const composer = () => app.page.getByRole('form', { name: 'Composer' });

async function openSourceViewer() {
  const { page } = app;
  await page.locator(`[data-card="${sourceJob}"]`).dblclick();
  const viewer = page.getByRole('dialog', { name: `Viewer: ${SOURCE}` });
  await viewer.getByRole('group', { name: 'Work from this image' }).waitFor();
  return viewer;
}

beforeAll(async () => {
  app = await openApp({
    prefix: 'atelier-e2e-iterate-',
    seed: async (host) => {
      const { job } = await apiCall(host, 'jobs.submit', {
        provider: 'builtin',
        prompt: SOURCE,
        width: 1024,
        height: 640,
        count: 1,
        steps: 2,
        seed: 11,
      });
      await waitFor(
        async () => (await apiCall(host, 'jobs.get', { id: job.id })).status === 'succeeded',
        'the source job',
      );
      sourceJob = job.id;
      known.add(sourceJob);
      sourceImage = (await apiCall(host, 'jobs.get', { id: job.id })).images[0]!.id;
    },
    // A step that cannot happen fails with its locator, not as a bare test timeout.
    beforeGoto: (page) => page.setDefaultTimeout(8_000),
  });
  await expectGrid(app.page, [SOURCE]);
}, 120_000);

afterAll(() => app?.close());

describe('working from an image', () => {
  it('the viewer offers each action with its key and how the provider does it; one the chosen provider cannot do is disabled and says why', async () => {
    const { page } = app;
    let viewer = await openSourceViewer();
    let group = viewer.getByRole('group', { name: 'Work from this image' });
    expect(await group.getByRole('button', { name: /^Use as input/ }).getAttribute('aria-keyshortcuts')).toBe('I');
    expect(await group.getByRole('button', { name: /^Edit/ }).getAttribute('aria-keyshortcuts')).toBe('E');
    expect(await group.getByRole('button', { name: /^Variations/ }).getAttribute('aria-keyshortcuts')).toBe('V');
    expect(await group.getByRole('button', { name: /^Upscale ×2/ }).getAttribute('aria-keyshortcuts')).toBe('U');
    expect(await group.getByRole('button', { name: /^Upscale ×4/ }).getAttribute('aria-keyshortcuts')).toBe('Shift+U');
    expect(await group.locator('[aria-disabled="true"]').count()).toBe(0);
    const builtin = (await apiCall(app.host, 'providers.list', {})).providers.find((p) => p.id === 'builtin')!
      .capabilities.operations;
    expect(await group.getByRole('button', { name: /^Upscale ×2/ }).getAttribute('title')).toBe(
      `Upscale ×2 (U): ${builtin.upscale.reason!}`,
    );
    await screenshot(page, 'iterate-viewer-actions');
    await page.keyboard.press('Escape');

    // OpenAI chosen in the composer: what it cannot do (upscale) is off, with its reason; the rest stays on.
    await composer().getByLabel('Provider').selectOption('openai');
    const openai = (await apiCall(app.host, 'providers.list', {})).providers.find((p) => p.id === 'openai')!
      .capabilities.operations;
    expect(openai.upscale.supported).toBe(false);
    viewer = await openSourceViewer();
    group = viewer.getByRole('group', { name: 'Work from this image' });
    for (const [name, op] of [
      ['Use as input', openai.img2img],
      ['Edit', openai.inpaint],
      ['Upscale ×2', openai.upscale],
      ['Upscale ×4', openai.upscale],
    ] as const) {
      const button = group.getByRole('button', { name: new RegExp(`^${name}`) });
      expect(await button.getAttribute('aria-disabled')).toBe(String(!op.supported));
      if (!op.supported) expect(await button.getAttribute('title')).toBe(`${name}: ${op.reason!}`);
    }
    expect(await viewer.locator('.image-actions-reasons').innerText()).toContain(
      `Upscale ×2, Upscale ×4: ${openai.upscale.reason!}`,
    );
    // Variations run where the source ran (the built-in), so they stay on.
    expect(await group.getByRole('button', { name: /^Variations/ }).getAttribute('aria-disabled')).toBe('false');
    await screenshot(page, 'iterate-viewer-disabled');
    // A disabled button keeps the focus (aria-disabled), so its tooltip and the key both reach the person; nothing is queued.
    await group.getByRole('button', { name: /^Upscale ×2/ }).focus();
    await page.keyboard.press('u');
    await page.getByText(openai.upscale.reason!, { exact: true }).first().waitFor();
    expect((await apiCall(app.host, 'jobs.list', { limit: 50, view: 'all' })).items).toHaveLength(1);
    await page.keyboard.press('Escape');
    await composer().getByLabel('Provider').selectOption('builtin');
  });

  it('V in the viewer queues four variations: the source’s settings, no seed, variationOf the image; lineage shows them', async () => {
    const { page } = app;
    const viewer = await openSourceViewer();
    await viewer
      .getByRole('group', { name: 'Work from this image' })
      .getByRole('button', { name: /^Variations/ })
      .focus();
    await page.keyboard.press('v');
    const variation = await nextJob('the variations');
    expect(variation.request).toMatchObject({
      provider: 'builtin',
      prompt: SOURCE,
      width: 1024,
      height: 640,
      steps: 2,
      count: 4,
      variationOf: { imageId: sourceImage },
    });
    expect(variation.request.seed).toBeUndefined();
    // The source's details list it under "Made from this image" at once.
    const children = viewer.getByRole('region', { name: 'Lineage' }).locator('.lineage-children');
    await children
      .getByRole('button', { name: new RegExp(`: ${SOURCE}`) })
      .first()
      .waitFor();
    await page.keyboard.press('Escape');
  });

  it('I in the viewer puts the image in the composer’s strip at the source’s size; Generate sends it with the strength', async () => {
    const { page } = app;
    const viewer = await openSourceViewer();
    await viewer.getByRole('button', { name: 'Close viewer' }).focus();
    await page.keyboard.press('i');
    const strip = page.getByRole('group', { name: 'Working from an image' });
    await strip.waitFor();
    expect(await page.getByRole('dialog').count()).toBe(0);
    expect([
      await composer().getByLabel('Width').inputValue(),
      await composer().getByLabel('Height').inputValue(),
    ]).toEqual(['1024', '640']);
    const slider = strip.getByRole('slider');
    expect(await slider.inputValue()).toBe('0.75');
    await slider.focus();
    for (let i = 0; i < 3; i++) await page.keyboard.press('ArrowLeft');
    expect(await slider.inputValue()).toBe('0.6');
    await page.locator('textarea.prompt').fill('the lighthouse in a storm');
    await screenshot(page, 'iterate-input-strip');
    expect(await strip.getByRole('note').count()).toBe(0);
    await page
      .getByRole('form', { name: 'Composer' })
      .getByRole('button', { name: /^Generate/ })
      .click();
    const job = await nextJob('the image-to-image job');
    expect(job.request).toMatchObject({
      prompt: 'the lighthouse in a storm',
      width: 1024,
      height: 640,
      inputImage: { imageId: sourceImage, strength: 0.6 },
    });
    // Removed, the next Generate is text only again.
    await strip.getByRole('button', { name: 'Remove the input image' }).click();
    expect(await strip.count()).toBe(0);
    await page
      .getByRole('form', { name: 'Composer' })
      .getByRole('button', { name: /^Generate/ })
      .click();
    const plain = await nextJob('the text-only job');
    expect(plain.request.inputImage).toBeUndefined();
  });

  it('the card’s menu upscales ×2 (one image, the factor, the source’s prompt), Shift+U in the grid ×4; Made from opens the source', async () => {
    const { page } = app;
    await settled();
    await page
      .locator(`[data-id="${sourceJob}"]`)
      .getByRole('button', { name: `Work from this image: ${SOURCE}` })
      .click();
    const menu = page.getByRole('menu', { name: 'Work from this image' });
    await menu.waitFor();
    await screenshot(page, 'iterate-card-menu');
    // A job arriving on top re-lays the grid: the open menu stays open.
    const arriving = await apiCall(app.host, 'jobs.submit', {
      provider: 'builtin',
      prompt: 'a job arriving meanwhile',
      width: 64,
      height: 64,
      count: 1,
      steps: 1,
    });
    known.add(arriving.job.id);
    await page.locator(`[data-card="${arriving.job.id}"]`).waitFor();
    await settled();
    expect(await menu.count()).toBe(1);
    await menu.getByRole('menuitem', { name: /^Upscale ×2/ }).focus();
    expect(
      await page.evaluate(
        () =>
          (globalThis as unknown as { document: { activeElement: { textContent: string } | null } }).document
            .activeElement?.textContent,
      ),
    ).toContain('Upscale ×2');
    await page.keyboard.press('Enter');
    const job = await nextJob('the upscale');
    expect(job.request).toMatchObject({ prompt: SOURCE, count: 1, upscale: { imageId: sourceImage, factor: 2 } });
    const upscaled = await finished(job.id);
    expect([upscaled.status, upscaled.operation, upscaled.images[0]?.width, upscaled.images[0]?.height]).toEqual([
      'succeeded',
      'upscale',
      2048,
      1280,
    ]);
    expect(await menu.count()).toBe(0);
    // Shift+U on the card in the grid: ×4 (once the new card has arrived, so the grid holds still for the click).
    await page.locator(`[data-card="${job.id}"]`).waitFor();
    await page.locator(`[data-card="${sourceJob}"]`).click();
    expect(await page.locator(`[data-card="${sourceJob}"]`).getAttribute('aria-pressed')).toBe('true');
    await page.keyboard.press('Shift+U');
    const four = await nextJob('the upscale ×4');
    expect(four.request).toMatchObject({ count: 1, upscale: { imageId: sourceImage, factor: 4 } });

    // The new job's details say what it was made from; the thumbnail opens the source.
    const card = page.locator(`[data-card="${job.id}"]`);
    await card.waitFor();
    await card.dblclick();
    const viewer = page.getByRole('dialog');
    const lineage = viewer.getByRole('region', { name: 'Lineage' });
    await lineage.getByText('Upscale', { exact: true }).waitFor();
    await lineage.getByRole('button', { name: /^Open the source image/ }).click();
    await page.getByRole('dialog', { name: `Viewer: ${SOURCE}` }).waitFor();
    await page.keyboard.press('Escape');
  });

  it('E opens the mask brush; a painted stroke is sent as a PNG mask of the source’s size, then a masked edit', async () => {
    const { page } = app;
    // An empty composer prompt: the edit takes the source's.
    await page.locator('textarea.prompt').fill('');
    const masks: string[] = [];
    page.on('request', (request) => {
      if (request.url().endsWith('/api/images.saveMask'))
        masks.push((JSON.parse(request.postData()!) as { png: string }).png);
    });
    const viewer = await openSourceViewer();
    await viewer.getByRole('button', { name: 'Close viewer' }).focus();
    await page.keyboard.press('e');
    const brush = viewer.getByRole('region', { name: /^Mask brush/ });
    await brush.waitFor();
    const canvas = brush.locator('canvas');
    const box = (await canvas.boundingBox())!;
    // Shown smaller than its 1024 × 640 pixels: the mask stays at the source's size.
    expect(box.width).toBeLessThan(1024);
    const at = (fx: number, fy: number) => [box.x + box.width * fx, box.y + box.height * fy] as const;
    const stroke = async () => {
      await page.mouse.move(...at(0.2, 0.5));
      await page.mouse.down();
      for (let i = 1; i <= 8; i++) await page.mouse.move(...at(0.2 + 0.05 * i, 0.5));
      await page.mouse.up();
    };
    // By keyboard: the canvas takes the focus, Space paints under the brush, Ctrl+Z takes it back.
    await canvas.focus();
    await page.keyboard.press('Space');
    await brush.getByText(/% to repaint$/).waitFor();
    await page.keyboard.press('Control+z');
    await brush.getByText('Nothing painted yet').waitFor();
    // A pen and a finger paint as the mouse does (pointer events, whatever the pointer).
    for (const pointerType of ['pen', 'touch']) {
      await canvas.evaluate((node, type) => {
        const el = node as unknown as {
          getBoundingClientRect(): { left: number; top: number; width: number; height: number };
          dispatchEvent(e: unknown): void;
        };
        const r = el.getBoundingClientRect();
        const Pointer = (globalThis as unknown as { PointerEvent: new (name: string, init: object) => unknown })
          .PointerEvent;
        const fire = (name: string, fx: number) =>
          el.dispatchEvent(
            new Pointer(name, {
              bubbles: true,
              pointerId: 7,
              pointerType: type,
              isPrimary: true,
              button: name === 'pointermove' ? -1 : 0,
              clientX: r.left + r.width * fx,
              clientY: r.top + r.height * 0.8,
            }),
          );
        fire('pointerdown', 0.7);
        fire('pointermove', 0.8);
        fire('pointerup', 0.8);
      }, pointerType);
      await brush.getByText(/% to repaint$/).waitFor();
      await page.keyboard.press('Control+z');
      await brush.getByText('Nothing painted yet').waitFor();
    }
    await stroke();
    await brush.getByText(/% to repaint$/).waitFor();
    // Ctrl+Z takes the stroke back.
    await page.keyboard.press('Control+z');
    await brush.getByText('Nothing painted yet').waitFor();
    await stroke();
    await brush.getByText(/% to repaint$/).waitFor();
    await page.mouse.move(...at(0.45, 0.3));
    await screenshot(page, 'iterate-mask-brush');
    expect(await brush.getByLabel('Prompt for this edit').inputValue()).toBe(SOURCE);
    const radius = Number(/Brush (\d+) px/.exec(await brush.locator('.mask-size').innerText())![1]) / 2;
    await brush.getByRole('button', { name: 'Repaint' }).click();
    await waitFor(() => masks.length === 1, 'the mask to be sent');
    const png = Buffer.from(masks[0]!, 'base64');
    const meta = await sharp(png).metadata();
    expect([meta.width, meta.height, meta.channels]).toEqual([1024, 640, 1]);
    const { data } = await sharp(png).extractChannel(0).raw().toBuffer({ resolveWithObject: true });
    const pixel = (x: number, y: number) => data[y * 1024 + x];
    // The stroke ran from 20% to 60% across, half way down, in the image's own pixels (not the screen's).
    const row = Array.from({ length: 1024 }, (_, x) => pixel(x, 320));
    const column = Array.from({ length: 640 }, (_, y) => pixel(410, y));
    const near = (value: number, expected: number) => expect(Math.abs(value - expected)).toBeLessThanOrEqual(3);
    near(row.indexOf(255), 0.2 * 1024 - radius);
    near(row.lastIndexOf(255), 0.6 * 1024 + radius);
    near(column.indexOf(255), 320 - radius);
    near(column.lastIndexOf(255), 320 + radius);
    expect(new Set(data)).toEqual(new Set([0, 255]));
    const job = await nextJob('the masked edit');
    expect(job.request).toMatchObject({ prompt: SOURCE, count: 1, inputImage: { imageId: sourceImage }, mask: {} });
    expect(job.request.mask!.imageId).not.toBe(sourceImage);
    // The built-in provider repaints it: a finished masked edit of the source, at the source's size.
    const done = await finished(job.id);
    expect([done.status, done.operation, done.parentImageId, done.images[0]?.width, done.images[0]?.height]).toEqual([
      'succeeded',
      'inpaint',
      sourceImage,
      1024,
      640,
    ]);
    await brush.waitFor({ state: 'detached' });
    await page.keyboard.press('Escape');
  });

  it('Made from this image lists what the library made from it (from:), also when none of it is loaded; a purged source says so', async () => {
    const { page } = app;
    const children = (await apiCall(app.host, 'jobs.list', { limit: 50, view: 'all', search: `from:${sourceImage}` }))
      .items;
    expect(children.map((j) => j.operation).sort()).toEqual(['img2img', 'inpaint', 'upscale', 'upscale', 'variation']);
    // Only the source in the grid (the others have other seeds): the list comes from the search, not the grid.
    await search(page, 'seed:11');
    await expectGrid(page, [SOURCE]);
    const viewer = await openSourceViewer();
    const list = viewer.getByRole('region', { name: 'Lineage' }).locator('.lineage-children');
    await waitFor(
      async () => (await list.getByRole('button').count()) === children.length,
      'every job made from the source',
    );
    const labels = await list
      .getByRole('button')
      .evaluateAll((nodes) => nodes.map((n) => n.getAttribute('aria-label')!.split(':')[0]));
    expect(labels.sort()).toEqual(['Image to image', 'Masked edit', 'Upscale', 'Upscale', 'Variation']);
    await page.keyboard.press('Escape');

    // In a search that holds only what was made from it, a child's "Made from" still opens the source (its job is named).
    await search(page, `from:${sourceImage}`);
    const child = children.find((j) => j.operation === 'variation')!;
    await page.locator(`[data-card="${child.id}"]`).dblclick();
    await page
      .getByRole('dialog')
      .getByRole('region', { name: 'Lineage' })
      .getByRole('button', { name: /^Open the source image/ })
      .click();
    await page.getByRole('dialog', { name: `Viewer: ${SOURCE}` }).waitFor();
    await page.keyboard.press('Escape');
    await search(page, '');

    // The source purged for good while the composer works from it: the engine's refusal shows in the strip.
    const again = await openSourceViewer();
    await again.getByRole('button', { name: 'Close viewer' }).focus();
    await page.keyboard.press('i');
    const strip = page.getByRole('group', { name: 'Working from an image' });
    await strip.waitFor();
    await apiCall(app.host, 'jobs.trash', { ids: [sourceJob] });
    await apiCall(app.host, 'jobs.purge', { ids: [sourceJob] });
    await page.locator('textarea.prompt').fill('from a lost source');
    await page
      .getByRole('form', { name: 'Composer' })
      .getByRole('button', { name: /^Generate/ })
      .click();
    await strip.getByRole('alert').waitFor();
    await screenshot(page, 'iterate-input-strip-refused');
    const refusal = await strip.getByRole('alert').innerText();
    await strip.getByRole('button', { name: 'Remove the input image' }).click();

    // Its child says the source is gone, and keeps the operation.
    const upscale = children.find((j) => j.operation === 'upscale')!;
    await page.reload();
    await page.locator(`[data-card="${upscale.id}"]`).dblclick();
    const lineage = page.getByRole('dialog').getByRole('region', { name: 'Lineage' });
    await lineage.getByText('The source is no longer in the library.').waitFor();
    expect(await lineage.locator('.lineage-parent .badge').innerText()).toBe('Upscale');
    expect(refusal).toMatch(/no longer in the library/);
    await page.keyboard.press('Escape');
  });
});
