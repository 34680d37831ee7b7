import { mkdir, rm, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ID, startHarness, type Harness } from './helpers.js';

const PNG = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 9, 9]);

describe('headless host: media and static files', () => {
  let h: Harness;
  beforeEach(async () => {
    h = await startHarness();
    await mkdir(join(h.engine.dataDir, 'library', 'ab'), { recursive: true });
    await mkdir(join(h.engine.dataDir, 'thumbs', 'ab'), { recursive: true });
    await writeFile(join(h.engine.dataDir, 'library', 'ab', 'cdef.png'), PNG);
    await writeFile(join(h.engine.dataDir, 'thumbs', 'ab', 'cdef.webp'), 'RIFFwebp');
    await writeFile(join(h.root, 'secret.txt'), 'top secret');
    h.engine.media.set(`image/${ID}`, { path: join(h.engine.dataDir, 'library', 'ab', 'cdef.png'), mime: 'image/png' });
    h.engine.media.set(`thumb/${ID}`, {
      path: join(h.engine.dataDir, 'thumbs', 'ab', 'cdef.webp'),
      mime: 'image/webp',
    });
    h.engine.media.set(`preview/${ID}`, {
      path: join(h.engine.dataDir, 'thumbs', 'ab', 'cdef.webp'),
      mime: 'image/webp',
    });
  });
  afterEach(() => h.close());

  it('serves an original with its type, length and a long immutable cache', async () => {
    const reply = await h.call({ path: `/media/image/${ID}` });
    expect(reply.status).toBe(200);
    expect(reply.headers['content-type']).toBe('image/png');
    expect(reply.headers['content-length']).toBe(String(PNG.length));
    expect(reply.headers['cache-control']).toBe('private, max-age=31536000, immutable');
    expect(reply.headers['x-content-type-options']).toBe('nosniff');
    const thumb = await h.call({ path: `/media/thumb/${ID}` });
    expect(thumb.headers['content-type']).toBe('image/webp');
    expect(thumb.text).toBe('RIFFwebp');
    // Previews change while a job runs.
    expect((await h.call({ path: `/media/preview/${ID}` })).headers['cache-control']).toBe('no-store');
  });

  it.each([
    '/media/image/../../secret.txt',
    '/media/image/%2e%2e%2f%2e%2e%2fsecret.txt',
    '/media/image/..%2fsecret.txt',
    '/media/image/..%5csecret.txt',
    '/media/image/..\\secret.txt',
    `/media/image/${ID}%00`,
    `/media/image/${ID}/`,
    `/media/other/${ID}`,
    '/media/image/0190a6e2-0000-7000-8000-00000000000f',
    '/media/',
  ])('answers 404 for %s', async (path) => {
    const reply = await h.call({ path });
    expect(reply.status).toBe(404);
    expect(reply.text).not.toContain('top secret');
  });

  it('refuses a store path that leads out of the data dir, directly or by symlink', async () => {
    h.engine.media.set(`image/${ID}`, { path: join(h.root, 'secret.txt'), mime: 'image/png' });
    expect((await h.call({ path: `/media/image/${ID}` })).status).toBe(404);
    await symlink(join(h.root, 'secret.txt'), join(h.engine.dataDir, 'library', 'evil.png'));
    h.engine.media.set(`image/${ID}`, { path: join(h.engine.dataDir, 'library', 'evil.png'), mime: 'image/png' });
    expect((await h.call({ path: `/media/image/${ID}` })).status).toBe(404);
  });

  it('serves the built renderer: index at /, hashed assets cached for good', async () => {
    const index = await h.call({ path: '/' });
    expect(index.status).toBe(200);
    expect(index.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(index.headers['cache-control']).toBe('no-cache');
    const asset = await h.call({ path: '/assets/index-abc123.js' });
    expect(asset.headers['content-type']).toBe('text/javascript; charset=utf-8');
    expect(asset.headers['cache-control']).toContain('immutable');
    expect((await h.call({ path: '/', method: 'POST', body: '' })).status).toBe(405);
  });

  it.each([
    '/../secret.txt',
    '/%2e%2e/secret.txt',
    '/assets/..%2f..%2fsecret.txt',
    '/..%5csecret.txt',
    '/missing.js',
    '/assets',
  ])('answers 404 for static %s', async (path) => {
    const reply = await h.call({ path });
    expect(reply.status).toBe(404);
    expect(reply.text).not.toContain('top secret');
  });

  it('says how to build the UI when it is missing', async () => {
    await rm(join(h.root, 'renderer'), { recursive: true });
    const reply = await h.call({ path: '/' });
    expect(reply.status).toBe(503);
    expect(reply.text).toContain('npm run build:renderer');
  });
});
