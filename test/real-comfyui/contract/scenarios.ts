import { randomUUID } from 'node:crypto';
import sharp from 'sharp';
import {
  type Graph,
  KIT_UPSCALER,
  droppedSaveGraph,
  imageGraph,
  invalidGraphs,
  twoBranchGraph,
  txt2img,
  upscaleGraph,
} from './graphs.js';
import { answer, historyEntry, queueHolds, scrub, shapes, tokens } from './normalize.js';
import { type Answer, Listener, call } from './wire.js';

/** The nodes whose /object_info the contract records: every node Atelier's graphs use. */
export const CONTRACT_NODES = [
  'CheckpointLoaderSimple',
  'KSampler',
  'EmptyLatentImage',
  'CLIPTextEncode',
  'VAEDecode',
  'SaveImage',
  'LoadImage',
  'LoadImageMask',
  'VAEEncode',
  'SetLatentNoiseMask',
  'RepeatLatentBatch',
  'RepeatImageBatch',
  'ImageCompositeMasked',
  'UpscaleModelLoader',
  'ImageUpscaleWithModel',
  'ImageScaleBy',
  'ImageScale',
  'PreviewImage',
  'LoraLoader',
];

export type Facts = Record<string, unknown>;

/** What one scenario found, and (for discovery) the raw object_info the fake serves. */
export interface ContractRun {
  facts: Record<string, Facts>;
  objectInfo: Record<string, unknown>;
  version: string;
}

const clientId = () => randomUUID().replace(/-/g, '');

async function png(width: number, height: number, rgb: [number, number, number]): Promise<Buffer> {
  return sharp({ create: { width, height, channels: 3, background: { r: rgb[0], g: rgb[1], b: rgb[2] } } })
    .png()
    .toBuffer();
}

async function upload(base: string, bytes: Buffer, name: string, fields: Record<string, string>): Promise<Answer> {
  const form = new FormData();
  form.append('image', new Blob([new Uint8Array(bytes)], { type: 'image/png' }), name);
  for (const [k, v] of Object.entries(fields)) form.append(k, v);
  return call(base, 'POST', '/upload/image', { form });
}

async function viewSizes(base: string, history: unknown, promptId: string): Promise<number[][]> {
  const outputs = ((
    history as Record<
      string,
      { outputs?: Record<string, { images?: { filename: string; subfolder: string; type: string }[] }> }
    >
  )[promptId]?.outputs ?? {}) as Record<string, { images?: { filename: string; subfolder: string; type: string }[] }>;
  const sizes: number[][] = [];
  for (const node of Object.values(outputs)) {
    for (const ref of node.images ?? []) {
      const res = await fetch(
        `${base}/view?${new URLSearchParams({ filename: ref.filename, subfolder: ref.subfolder, type: ref.type })}`,
      );
      const meta = await sharp(Buffer.from(await res.arrayBuffer())).metadata();
      sizes.push([meta.width, meta.height]);
    }
  }
  return sizes;
}

/** Queues a graph for a listening client and waits for its end signal; the run's messages, answer and history. */
async function run(base: string, graph: Graph, options: { flags?: boolean; listener?: Listener } = {}) {
  const listener = options.listener ?? (await new Listener(base, clientId()).open(options.flags ?? true));
  const promptId = randomUUID();
  const queued = await call(base, 'POST', '/prompt', {
    json: { prompt: graph, client_id: listener.clientId, prompt_id: promptId },
  });
  if (queued.status === 200) await listener.ended(promptId);
  const history = await call(base, 'GET', `/history/${promptId}`);
  if (options.listener === undefined) await listener.close();
  return { promptId, queued, heard: await listener.settled(), history: history.json, listener };
}

async function discovery(
  base: string,
): Promise<{ facts: Facts; objectInfo: Record<string, unknown>; version: string }> {
  const stats = (await call(base, 'GET', '/system_stats')).json as {
    system: Record<string, unknown>;
    devices: Record<string, unknown>[];
  };
  const objectInfo: Record<string, unknown> = {};
  for (const node of CONTRACT_NODES) objectInfo[node] = (await call(base, 'GET', `/object_info/${node}`)).json;
  // The uploaded files LoadImage offers depend on what the server's input folder held before.
  const shown = structuredClone(objectInfo) as Record<
    string,
    Record<string, { input: { required: Record<string, unknown[]> } }>
  >;
  for (const node of ['LoadImage', 'LoadImageMask']) shown[node]![node]!.input.required.image![0] = '<input files>';
  const facts: Facts = {
    systemStats: {
      keys: Object.keys(stats).sort(),
      system: Object.keys(stats.system).sort(),
      device: Object.keys(stats.devices[0] ?? {}).sort(),
      argvIsList: Array.isArray(stats.system.argv),
      version: stats.system.comfyui_version,
    },
    objectInfo: shown,
    unknownNode: answer(await call(base, 'GET', '/object_info/NoSuchNode')),
    apiPrefix: (await call(base, 'GET', '/api/object_info/KSampler')).status,
  };
  return { facts, objectInfo, version: String(stats.system.comfyui_version) };
}

/** Text to image with previews, without the feature flag (legacy frames), a batch, and the same graph again (cached). */
async function textToImage(base: string, nonce: string): Promise<Facts> {
  const graph = txt2img({ prompt: `a red fox ${nonce}`, seed: 2 });
  const first = await run(base, graph);
  const ids = { [first.promptId]: '<prompt>' };
  // Right after it, before any other prompt: ComfyUI's cache keeps the last prompt's nodes.
  const again = await run(base, graph);
  const legacy = await run(base, txt2img({ prompt: `a grey wolf ${nonce}`, seed: 3 }), { flags: false });
  const batch = await run(base, txt2img({ prompt: `two owls ${nonce}`, seed: 4, batch: 2, prefix: 'Contract_batch' }));
  const files = (h: { heard: typeof first.heard }) =>
    h.heard.flatMap((m) =>
      'text' in m && m.text.type === 'executed'
        ? [(m.text.data.output as { images: { filename: string }[] }).images.map((i) => i.filename)]
        : [],
    );
  const cached = again.heard.find((m) => 'text' in m && m.text.type === 'execution_cached');
  return {
    queued: answer(first.queued, ids),
    tokens: tokens(first.heard, first.promptId, { executing: ['3', '8', '9'] }),
    shapes: shapes(first.heard),
    history: historyEntry(first.history, first.promptId),
    sizes: await viewSizes(base, first.history, first.promptId),
    legacyTokens: tokens(legacy.heard, legacy.promptId, {
      executing: ['3', '8', '9'],
      drop: ['preview', 'progress_state'],
    }),
    legacyPreviews: [
      ...new Set(
        legacy.heard.flatMap((m) =>
          'binary' in m ? [`${m.binary.event}:${m.binary.imageType}:${m.binary.mime}:${m.binary.size?.join('x')}`] : [],
        ),
      ),
    ],
    cachedTokens: tokens(again.heard, again.promptId),
    cachedNodes: cached !== undefined && 'text' in cached ? [...(cached.text.data.nodes as string[])].sort() : 'none',
    cachedSameFiles: JSON.stringify(files(again)) === JSON.stringify(files(first)),
    cachedHistory: historyEntry(again.history, again.promptId),
    batchExecuted: tokens(batch.heard, batch.promptId, {
      drop: ['executing', 'progress', 'preview', 'progress_state', 'feature_flags'],
    }),
    batchSizes: await viewSizes(base, batch.history, batch.promptId),
  };
}

/** Uploads (overwrite, renaming, refusals), image-to-image, a masked edit with a batch, upscales and a file PIL cannot read. */
async function fromImages(base: string, nonce: string): Promise<Facts> {
  const source = await png(72, 56, [200, 40, 40]);
  const name = `contract-image-${nonce}.png`;
  const uploads = {
    overwrite: answer(await upload(base, source, name, { type: 'input', overwrite: 'true' })),
    sameAgain: answer(await upload(base, source, name, { type: 'input', overwrite: 'true' })),
    otherBytesNoOverwrite: answer(await upload(base, await png(72, 56, [1, 2, 3]), name, { type: 'input' })),
    sameBytesNoOverwrite: answer(await upload(base, source, name, { type: 'input' })),
    subfolder: answer(await upload(base, source, name, { type: 'input', subfolder: 'contract' })),
    dotdot: answer(await upload(base, source, '../evil.png', { type: 'input' })),
  };
  const maskBytes = await sharp({ create: { width: 72, height: 56, channels: 3, background: { r: 0, g: 0, b: 0 } } })
    .composite([
      {
        input: { create: { width: 30, height: 30, channels: 3, background: { r: 255, g: 255, b: 255 } } },
        left: 20,
        top: 10,
      },
    ])
    .png()
    .toBuffer();
  const maskName = `contract-mask-${nonce}.png`;
  await upload(base, maskBytes, maskName, { type: 'input', overwrite: 'true' });
  const img2img = await run(base, imageGraph(name));
  const inpaint = await run(base, imageGraph(name, maskName, 2));
  const lanczos = await run(base, upscaleGraph(name, 72, 56, 2));
  const model = await run(base, upscaleGraph(name, 72, 56, 2, KIT_UPSCALER));
  const broken = `contract-broken-${nonce}.png`;
  await upload(base, Buffer.from('<html>not an image</html>'), broken, { type: 'input', overwrite: 'true' });
  const failed = await run(base, upscaleGraph(broken, 8, 8, 2));
  const error = failed.heard.find((m) => 'text' in m && m.text.type === 'execution_error');
  const errorData = error !== undefined && 'text' in error ? error.text.data : {};
  return {
    uploads: scrub(uploads, { [nonce]: '<nonce>' }),
    img2imgSizes: await viewSizes(base, img2img.history, img2img.promptId),
    inpaintSizes: await viewSizes(base, inpaint.history, inpaint.promptId),
    lanczosTokens: tokens(lanczos.heard, lanczos.promptId, { drop: ['executing', 'progress_state', 'feature_flags'] }),
    lanczosSizes: await viewSizes(base, lanczos.history, lanczos.promptId),
    modelTokens: tokens(model.heard, model.promptId, { drop: ['executing', 'progress_state', 'feature_flags'] }),
    modelSizes: await viewSizes(base, model.history, model.promptId),
    runtimeError: {
      tokens: tokens(failed.heard, failed.promptId, { drop: ['progress_state', 'feature_flags'] }),
      keys: Object.keys(errorData).sort(),
      node: [errorData.node_id, errorData.node_type],
      exception: scrub(
        { message: errorData.exception_message, type: errorData.exception_type },
        { [nonce]: '<nonce>' },
      ),
      history: historyEntry(failed.history, failed.promptId),
    },
  };
}

/** Every refusal shape of /prompt, and a workflow with one output that fails validation while the other runs. */
async function refusals(base: string, nonce: string): Promise<Facts> {
  const out: Facts = {};
  for (const [name, graph] of Object.entries(invalidGraphs()))
    out[name] = answer(await call(base, 'POST', '/prompt', { json: { prompt: graph, client_id: 'contract' } }));
  out.no_prompt_key = answer(await call(base, 'POST', '/prompt', { json: { client_id: 'contract' } }));
  out.not_json = answer(await call(base, 'POST', '/prompt', { raw: '{not json' }));
  const origin = await fetch(`${base}/prompt`, {
    method: 'POST',
    headers: { origin: 'http://evil.example', 'content-type': 'application/json' },
    body: '{}',
  });
  out.origin_mismatch = origin.status;
  const branches = await run(base, twoBranchGraph(`a lighthouse ${nonce}`));
  out.two_branches = {
    queued: answer(branches.queued, { [branches.promptId]: '<prompt>' }),
    executed: tokens(branches.heard, branches.promptId, {
      drop: ['executing', 'progress', 'preview', 'progress_state', 'feature_flags'],
    }),
    history: historyEntry(branches.history, branches.promptId),
  };
  const dropped = await run(base, droppedSaveGraph(`a harbour ${nonce}`));
  out.save_dropped_preview_runs = {
    queued: answer(dropped.queued, { [dropped.promptId]: '<prompt>' }),
    executed: tokens(dropped.heard, dropped.promptId, {
      drop: ['executing', 'progress', 'preview', 'progress_state', 'feature_flags'],
    }),
    history: historyEntry(dropped.history, dropped.promptId),
  };
  out.history_unknown = answer(await call(base, 'GET', '/history/no-such-id'));
  out.view_missing = (await call(base, 'GET', '/view?filename=nope.png&subfolder=&type=output')).status;
  return out;
}

/**
 * One long job, watched from every side: another client's socket, a second job deleted while pending, the
 * client reconnecting mid-run, an interrupt with a wrong id and then with its own; the queue and history after.
 */
async function interrupts(base: string, nonce: string): Promise<Facts> {
  const runner = await new Listener(base, clientId()).open();
  const bystander = await new Listener(base, clientId()).open();
  const waiting = await new Listener(base, clientId()).open();
  const longId = randomUUID();
  const pendingId = randomUUID();
  const ids = { [longId]: '<long>', [pendingId]: '<pending>' };
  await call(base, 'POST', '/prompt', {
    json: {
      prompt: txt2img({ prompt: `a slow river ${nonce}`, steps: 200, seed: 8 }),
      client_id: runner.clientId,
      prompt_id: longId,
    },
  });
  await runner.until((h) => 'text' in h && h.text.type === 'progress' && h.text.data.prompt_id === longId);
  await call(base, 'POST', '/prompt', {
    json: { prompt: txt2img({ prompt: `a quick brook ${nonce}` }), client_id: waiting.clientId, prompt_id: pendingId },
  });
  const before = queueHolds((await call(base, 'GET', '/queue')).json, ids);
  const deleted = answer(await call(base, 'POST', '/queue', { json: { delete: [pendingId] } }));
  const after = queueHolds((await call(base, 'GET', '/queue')).json, ids);
  // The client reconnects with its own id: the server greets it with the running node, without a prompt id.
  await runner.close();
  const again = await new Listener(base, runner.clientId).open();
  await again.until((h) => 'text' in h && h.text.type === 'executing');
  const wrong = answer(await call(base, 'POST', '/interrupt', { json: { prompt_id: randomUUID() } }));
  const ours = answer(await call(base, 'POST', '/interrupt', { json: { prompt_id: longId } }));
  await again.ended(longId);
  const history = await call(base, 'GET', `/history/${longId}`);
  const end = queueHolds((await call(base, 'GET', '/queue')).json, ids);
  await Promise.all([again.close(), bystander.close(), waiting.close()]);
  const interrupted = (await again.settled()).find((m) => 'text' in m && m.text.type === 'execution_interrupted');
  const firstRunnerTokens = tokens(await runner.settled(), longId, {
    drop: ['executing', 'progress', 'preview', 'progress_state'],
  });
  return {
    queueBefore: before,
    deleteAnswer: deleted,
    queueAfterDelete: after,
    runnerTokens: firstRunnerTokens,
    reconnectTokens: tokens(await again.settled(), longId, { drop: ['progress', 'preview', 'progress_state'] }),
    wrongId: wrong,
    ours,
    interruptedKeys:
      interrupted !== undefined && 'text' in interrupted ? Object.keys(interrupted.text.data).sort() : 'none',
    bystander: tokens(await bystander.settled(), longId),
    deletedClient: tokens(await waiting.settled(), pendingId),
    history: historyEntry(history.json, longId),
    pendingHistory: answer(await call(base, 'GET', `/history/${pendingId}`)),
    queueAtEnd: end,
  };
}

/** Two sockets with one client id: only the newest hears, and once the older closes, neither does. */
async function twoSockets(base: string, nonce: string): Promise<Facts> {
  const id = clientId();
  const older = await new Listener(base, id).open();
  const newer = await new Listener(base, id).open();
  await newer.until((h) => 'text' in h && h.text.type === 'feature_flags');
  const graph = txt2img({ prompt: `a paper boat ${nonce}`, seed: 21 });
  const first = await run(base, graph, { listener: newer });
  const olderHeard = tokens(await older.settled(), first.promptId);
  await older.close();
  // The same graph again (from the cache, at once); a later job of another client ends only after it, so by then
  // everything the server sent for the first client id has been sent.
  const secondId = randomUUID();
  const heardBefore = newer.heard.length;
  await call(base, 'POST', '/prompt', { json: { prompt: graph, client_id: id, prompt_id: secondId } });
  await run(base, graph);
  const newerAfter = tokens((await newer.settled()).slice(heardBefore), secondId);
  await newer.close();
  return {
    olderHeard,
    newerHeard: tokens(first.heard, first.promptId, {
      executing: ['9'],
      drop: ['progress', 'preview', 'progress_state'],
    }),
    newerAfterOlderClosed: newerAfter,
  };
}

/** Runs every scenario against a server (the real one, or the fake) and returns what the contract compares. */
export async function runContract(base: string, log: (line: string) => void = () => undefined): Promise<ContractRun> {
  const nonce = randomUUID().slice(0, 8);
  const facts: Record<string, Facts> = {};
  const found = await discovery(base);
  facts.discovery = found.facts;
  for (const [name, scenario] of [
    ['textToImage', textToImage],
    ['fromImages', fromImages],
    ['refusals', refusals],
    ['interrupts', interrupts],
    ['twoSockets', twoSockets],
  ] as const) {
    const started = Date.now();
    facts[name] = await scenario(base, nonce);
    log(`${name}: ${((Date.now() - started) / 1000).toFixed(1)} s`);
  }
  return { facts, objectInfo: found.objectInfo, version: found.version };
}
