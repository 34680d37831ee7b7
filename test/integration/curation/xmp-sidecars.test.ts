import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { xmpPacket } from '../../../electron/library/xmp/xmp-packet.js';
import { toolFiles } from '../../fixtures/images/tool-files.js';
import { startHarness, waitFor, type Harness } from '../engine/harness.js';

describe('XMP sidecars beside imported originals (off by default)', () => {
  let h: Harness | undefined;
  let outside: string;
  afterEach(async () => {
    await h?.cleanup();
    rmSync(outside, { recursive: true, force: true });
  });

  it('writes rating and tags only when turned on, never touches a sidecar it did not write, and stops when one is edited', async () => {
    outside = mkdtempSync(join(tmpdir(), 'atelier-xmp-'));
    const files = (await toolFiles('x')).slice(0, 3);
    for (const f of files) writeFileSync(join(outside, f.name), f.bytes);
    const foreign = `<?xml version="1.0"?><x:xmpmeta xmlns:x="adobe:ns:meta/"><!-- Lightroom's --></x:xmpmeta>\n`;
    writeFileSync(join(outside, `${files[1]!.name}.xmp`), foreign);
    h = await startHarness();
    const { import: started } = await h.engine.handlers['library.import']({
      paths: [outside],
      mode: 'link',
      watch: false,
    });
    await waitFor(async () =>
      (await h!.engine.handlers['library.imports']({})).items.find((i) => i.id === started.id)?.status === 'completed'
        ? true
        : undefined,
    );
    const jobs = (await h.engine.handlers['jobs.list']({ limit: 10, view: 'active' })).items;
    const imageOf = (name: string) => jobs.find((j) => j.path === join(outside, name))!.images[0]!.id;
    const [a, b, c] = files.map((f) => imageOf(f.name));
    const sidecar = (i: number) => join(outside, `${files[i]!.name}.xmp`);

    expect((await h.engine.handlers['settings.get']({})).library).toEqual({ xmpSidecars: false, comfyNodeRules: [] });
    await h.engine.handlers['images.setRating']({ ids: [c!], rating: 3 });

    await h.engine.handlers['settings.update']({ library: { xmpSidecars: true } });
    await h.engine.handlers['images.setRating']({ ids: [a!, b!], rating: 4 });
    await h.engine.handlers['images.tag']({ ids: [a!], add: ['portfolio', 'fox & <hare>'] });
    const written = await waitFor(() => {
      const text = existsSync(sidecar(0)) ? readFileSync(sidecar(0), 'utf8') : '';
      return text.includes('fox &amp; &lt;hare&gt;') ? text : undefined;
    });
    expect(written).toBe(xmpPacket(4, ['fox & <hare>', 'portfolio']));

    // Someone else's sidecar stays byte for byte; so does one Atelier wrote once another tool has changed it.
    const edited = `${written}<!-- edited in digiKam -->\n`;
    writeFileSync(sidecar(0), edited);
    await h.engine.handlers['images.setRating']({ ids: [a!], rating: 1 });
    await h.engine.close();
    expect(readFileSync(sidecar(1), 'utf8')).toBe(foreign);
    expect(readFileSync(sidecar(0), 'utf8')).toBe(edited);
    // Rated while the setting was off: no sidecar. The originals are untouched.
    expect(existsSync(sidecar(2))).toBe(false);
    for (const f of files) expect(readFileSync(join(outside, f.name))).toEqual(Buffer.from(f.bytes));
  }, 60_000);

  it('keeps a sidecar Atelier wrote up to date with each change and with undo', async () => {
    outside = mkdtempSync(join(tmpdir(), 'atelier-xmp-'));
    mkdirSync(outside, { recursive: true });
    const [file] = await toolFiles('y');
    writeFileSync(join(outside, file!.name), file!.bytes);
    h = await startHarness();
    await h.engine.handlers['settings.update']({ library: { xmpSidecars: true } });
    const { import: started } = await h.engine.handlers['library.import']({
      paths: [outside],
      mode: 'link',
      watch: false,
    });
    await waitFor(async () =>
      (await h!.engine.handlers['library.imports']({})).items.find((i) => i.id === started.id)?.status === 'completed'
        ? true
        : undefined,
    );
    const image = (await h.engine.handlers['jobs.list']({ limit: 10, view: 'active' })).items[0]!.images[0]!.id;
    const path = join(outside, `${file!.name}.xmp`);
    const read = () => (existsSync(path) ? readFileSync(path, 'utf8') : '');
    await h.engine.handlers['images.setRating']({ ids: [image], rating: 5 });
    await waitFor(() => read() === xmpPacket(5, []));
    const second = await h.engine.handlers['images.setRating']({ ids: [image], rating: 2 });
    await waitFor(() => read() === xmpPacket(2, []));
    await h.engine.handlers['images.undo']({ undoId: second.undoId! });
    await waitFor(() => read() === xmpPacket(5, []));
    await h.engine.handlers['images.tag']({ ids: [image], add: ['cat'] });
    await h.engine.handlers['tags.rename']({ from: 'cat', to: 'Cats' });
    await waitFor(() => read() === xmpPacket(5, ['Cats']));
  }, 60_000);
});
