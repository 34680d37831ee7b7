import { mkdir, mkdtemp, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createFakeEngine, type FakeEngine } from '../../fakes/engine.js';
import { parseMediaPath, parseMediaUrl } from '../../../electron/host/media-request.js';

vi.mock('electron', () => ({ protocol: { registerSchemesAsPrivileged: vi.fn(), handle: vi.fn() } }));
const { appResponse, mediaResponse } = await import('../../../electron/glue/media-protocol.js');

const ID = '0190a6e2-0000-7000-8000-000000000001';
const PNG = Buffer.from([0x89, 0x50, 0x4e, 0x47, 1, 2, 3]);

describe('media scheme', () => {
  let root: string;
  let engine: FakeEngine;
  beforeEach(async () => {
    root = await mkdtemp(join(tmpdir(), 'atelier-media-'));
    await mkdir(join(root, 'data', 'library', 'ab'), { recursive: true });
    await writeFile(join(root, 'data', 'library', 'ab', 'cd.png'), PNG);
    await writeFile(join(root, 'outside.txt'), 'secret');
    engine = createFakeEngine(join(root, 'data'));
    engine.media.set(`image/${ID}`, { path: join(root, 'data', 'library', 'ab', 'cd.png'), mime: 'image/png' });
  });
  afterEach(() => rm(root, { recursive: true, force: true }));

  it('serves a known image with its type and a long cache', async () => {
    const response = await mediaResponse(engine, `atelier-media://image/${ID}`);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('image/png');
    expect(response.headers.get('cache-control')).toContain('immutable');
    expect(Buffer.from(await response.arrayBuffer())).toEqual(PNG);
  });

  const refused = [
    `atelier-media://image/../../outside.txt`,
    `atelier-media://image/%2e%2e/%2e%2e/outside.txt`,
    `atelier-media://image/..%2f..%2foutside.txt`,
    `atelier-media://image/%2E%2E%5Coutside.txt`,
    `atelier-media://image/..\\..\\outside.txt`,
    `atelier-media://image/${ID}%00.png`,
    `atelier-media://image/${ID}\u0000`,
    `atelier-media://image/${ID}/extra`,
    `atelier-media://library/${ID}`,
    `atelier-media://image/`,
    `atelier-media://thumb/${ID}`,
    `atelier-media://image/0190a6e2-0000-7000-8000-000000000002`,
    `atelier://image/${ID}`,
    `file:///etc/passwd`,
  ];
  it.each(refused)('answers 404 for %s', async (url) => {
    expect((await mediaResponse(engine, url)).status).toBe(404);
  });

  it('refuses a path the store resolves outside the data dir, directly or through a symlink', async () => {
    engine.media.set(`image/${ID}`, { path: join(root, 'outside.txt'), mime: 'image/png' });
    expect((await mediaResponse(engine, `atelier-media://image/${ID}`)).status).toBe(404);
    await symlink(join(root, 'outside.txt'), join(root, 'data', 'library', 'link.png'));
    engine.media.set(`image/${ID}`, { path: join(root, 'data', 'library', 'link.png'), mime: 'image/png' });
    expect((await mediaResponse(engine, `atelier-media://image/${ID}`)).status).toBe(404);
    engine.media.set(`image/${ID}`, { path: join(root, 'data'), mime: 'image/png' });
    expect((await mediaResponse(engine, `atelier-media://image/${ID}`)).status).toBe(404);
  });

  it('answers 404 when the file vanished after the lookup', async () => {
    engine.media.set(`image/${ID}`, { path: join(root, 'data', 'library', 'gone.png'), mime: 'image/png' });
    expect((await mediaResponse(engine, `atelier-media://image/${ID}`)).status).toBe(404);
  });

  it('never lets anything but a plain id token reach the store (property)', () => {
    fc.assert(
      fc.property(
        fc.string({ unit: 'binary', maxLength: 60 }),
        fc.constantFrom('image', 'thumb', 'preview'),
        (tail, kind) => {
          for (const parsed of [
            parseMediaUrl(`atelier-media://${kind}/${tail}`),
            parseMediaPath(`/media/${kind}/${tail}`),
          ]) {
            if (parsed !== null) {
              expect(parsed.kind).toBe(kind);
              expect(parsed.imageId).toMatch(/^[A-Za-z0-9_-]{1,128}$/);
            }
          }
        },
      ),
    );
  });
});

describe('app scheme', () => {
  let root: string;
  beforeEach(async () => {
    root = await mkdtemp(join(tmpdir(), 'atelier-app-'));
    await mkdir(join(root, 'renderer', 'assets'), { recursive: true });
    await writeFile(join(root, 'renderer', 'index.html'), '<!doctype html><title>Atelier</title>');
    await writeFile(join(root, 'renderer', 'assets', 'main.js'), 'console.log(1)');
    await writeFile(join(root, 'secret.txt'), 'secret');
  });
  afterEach(() => rm(root, { recursive: true, force: true }));

  it('serves index.html at / and assets by path, with the CSP on every response', async () => {
    const index = await appResponse(join(root, 'renderer'), 'atelier://app/');
    expect(index.status).toBe(200);
    expect(index.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(index.headers.get('content-security-policy')).toMatch(/default-src 'self'/);
    expect(index.headers.get('content-security-policy')).not.toMatch(/unsafe-eval/);
    expect(await index.text()).toContain('<title>Atelier</title>');
    const script = await appResponse(join(root, 'renderer'), 'atelier://app/assets/main.js');
    expect(script.headers.get('content-type')).toBe('text/javascript; charset=utf-8');
    expect(script.headers.get('content-security-policy')).toBe(index.headers.get('content-security-policy'));
  });

  it.each([
    'atelier://app/../secret.txt',
    'atelier://app/%2e%2e/secret.txt',
    'atelier://app/..%2fsecret.txt',
    'atelier://app/assets%2f..%2f..%2fsecret.txt',
    'atelier://app/..%5csecret.txt',
    'atelier://app/index.html%00',
    'atelier://app/assets',
    'atelier://app/missing.js',
    'atelier://other/index.html',
    'atelier-media://app/index.html',
  ])('answers 404 for %s', async (url) => {
    expect((await appResponse(join(root, 'renderer'), url)).status).toBe(404);
  });
});
