/**
 * The headless host on the real engine, with bodies written as raw JSON text (so "__proto__" is a real key and
 * "\ud83c" a real lone surrogate): provider ids that are not providers, and text that is not well-formed.
 */
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { JobDetail, ListPage } from '../../../shared/contract.js';
import { createEngine } from '../../../electron/engine/create-engine.js';
import type { Engine } from '../../../electron/engine/types.js';
import { startServer, type RunningServer } from '../../../electron/serve/server.js';
import { memoryKeyring } from '../engine/harness.js';
import { INHERITED_NAMES, globalsSnapshot } from '../../fixtures/globals.js';

const TOKEN = 'input-guards-token-0123456789abcdef';
let root: string;
let engine: Engine;
let server: RunningServer;

interface Reply {
  status: number;
  body: {
    ok: boolean;
    value?: unknown;
    error?: { code: string; message: string; details?: { fields?: Record<string, string> } };
  };
}

async function post(channel: string, rawJson: string): Promise<Reply> {
  const response = await fetch(`http://127.0.0.1:${server.port}/api/${channel}`, {
    method: 'POST',
    headers: { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json' },
    body: rawJson,
  });
  return { status: response.status, body: (await response.json()) as Reply['body'] };
}

beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), 'atelier-guards-'));
  await mkdir(join(root, 'renderer'));
  await writeFile(join(root, 'renderer', 'index.html'), '<!doctype html><title>Atelier</title>');
  engine = await createEngine(
    {
      dataDir: join(root, 'data'),
      keyring: memoryKeyring(),
    },
    {
      housekeepingDelayMs: 0,
      maintenanceIntervalMs: 0,
    },
  );
  server = await startServer({ engine, rendererDir: join(root, 'renderer'), token: TOKEN });
});

afterAll(async () => {
  await server.close();
  await engine.close({ graceMs: 0 });
  await rm(root, { recursive: true, force: true });
});

describe('headless host: provider ids', () => {
  it('refuses every inherited name as a provider id with invalid_request, and Object.prototype is untouched', async () => {
    const before = globalsSnapshot();
    const settingsBefore = (await post('settings.get', '{}')).body.value;
    for (const id of [...INHERITED_NAMES, 'constructor', '__proto__']) {
      const reply = await post(
        'settings.update',
        `{"providers":{${JSON.stringify(id)}:{"enabled":true,"concurrency":7}}}`,
      );
      expect(reply.status, id).toBe(400);
      expect(reply.body.error?.code, id).toBe('invalid_request');
    }
    const submitted = await post(
      'jobs.submit',
      '{"provider":"constructor","prompt":"a fox","width":64,"height":64,"count":1}',
    );
    expect(submitted.body.error?.code).toBe('invalid_request');
    expect(globalsSnapshot()).toBe(before);
    expect((Object as unknown as Record<string, unknown>).concurrency).toBeUndefined();
    expect((await post('settings.get', '{}')).body.value).toEqual(settingsBefore);
  });
});

describe('headless host: text that is not well-formed', () => {
  it('refuses a lone surrogate in any string field, naming the field, and stores nothing', async () => {
    const cases: Array<[string, string, string]> = [
      [
        'jobs.submit',
        '{"provider":"builtin","prompt":"half an emoji \\ud83c here","width":64,"height":64,"count":1}',
        'prompt',
      ],
      [
        'jobs.submit',
        '{"provider":"builtin","prompt":"a fox","negativePrompt":"\\udfa8","width":64,"height":64,"count":1}',
        'negativePrompt',
      ],
      [
        'jobs.submit',
        '{"provider":"builtin","prompt":"a fox","width":64,"height":64,"count":1,"idempotencyKey":"k\\ud800"}',
        'idempotencyKey',
      ],
      ['jobs.list', '{"search":"fox \\ud83c"}', 'search'],
      ['settings.update', '{"providers":{"a1111":{"username":"artist\\udc00"}}}', 'providers.a1111.username'],
    ];
    for (const [channel, body, field] of cases) {
      const reply = await post(channel, body);
      expect(reply.status, body).toBe(400);
      expect(reply.body.error?.code, body).toBe('invalid_request');
      expect(reply.body.error?.message, body).toContain(`“${field}”`);
      expect(reply.body.error?.details?.fields, body).toEqual({
        [field]: 'Not valid text: it contains a lone surrogate.',
      });
    }
    const list = (await post('jobs.list', '{"view":"all"}')).body.value as ListPage;
    expect(list.items).toEqual([]);
    const settings = (await post('settings.get', '{}')).body.value as {
      providers: Record<string, { username?: string }>;
    };
    expect(settings.providers['a1111']?.username).toBeUndefined();
  });

  it('keeps a well-formed prompt with emoji and astral characters exactly as sent', async () => {
    const prompt = 'a 🎨 palette, 𝒻𝑜𝓍 and 狐';
    const reply = await post(
      'jobs.submit',
      JSON.stringify({ provider: 'builtin', prompt, width: 64, height: 64, count: 1 }),
    );
    expect(reply.status).toBe(200);
    const { job } = reply.body.value as { job: JobDetail };
    const stored = (await post('jobs.get', JSON.stringify({ id: job.id }))).body.value as JobDetail;
    expect(stored.prompt).toBe(prompt);
  });
});
