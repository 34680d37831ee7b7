import type { ServerResponse } from 'node:http';
import sharp from 'sharp';
import { credentialEcho, echoEverywhere } from './echo.js';
import { makePng, pngFor } from './png.js';
import { pyJson } from './pyjson.js';
import { type LoggedRequest, Script, delay, sendText, startHttpFake, streamHugeBody } from './server.js';

/** What the next POST /sdapi/v1/txt2img does. */
export type A1111Scenario =
  | {
      kind: 'success';
      /** Time per sampling step (the request's `steps` are simulated). */
      stepMs?: number;
      /** A new live preview every N steps (0 = never). */
      previewEvery?: number;
      /** The live preview at a step (default: a tiny flat colour per step). */
      preview?: (step: number) => Buffer;
      /** Put a grid image first with index_of_first_image 1, as A1111 does for batches with grids on. */
      grid?: boolean;
      /** Time spent queued (behind someone else) before sampling starts. */
      queuedMs?: number;
    }
  | { kind: 'error'; status: number; body: unknown; headers?: Record<string, string> }
  | { kind: 'malformed_json' }
  | { kind: 'invalid_base64' }
  | { kind: 'bad_info' }
  | { kind: 'huge'; bytes: number; declareLength?: boolean }
  | { kind: 'hang' }
  /** The socket is destroyed halfway through the response body. */
  | { kind: 'cut' };

/** What the next POST /sdapi/v1/extra-single-image does. */
export type A1111UpscaleScenario =
  | { kind: 'success' }
  /** 200 with an `image` that decodes to text, not an image. */
  | { kind: 'not_image' }
  /** 200 with an image of the source's size (as if the upscaler silently did nothing). */
  | { kind: 'wrong_size' }
  | { kind: 'error'; status: number; body: unknown }
  /** Takes the request and never answers. */
  | { kind: 'hang' };

/** What the fake decoded from one img2img or upscale request: the exact bytes it was sent. */
export interface A1111Received {
  route: 'img2img' | 'extra-single-image';
  images: Buffer[];
  mask?: Buffer;
  body: Record<string, unknown>;
}

/** GET /sdapi/v1/upscalers as a stock A1111 1.10 with Real-ESRGAN installed answers it. */
export const A1111_UPSCALERS = [
  { name: 'None', model_name: null, model_path: null, model_url: null, scale: 4 },
  { name: 'Lanczos', model_name: null, model_path: null, model_url: null, scale: 4 },
  { name: 'Nearest', model_name: null, model_path: null, model_url: null, scale: 4 },
  {
    name: 'ESRGAN_4x',
    model_name: 'ESRGAN_4x',
    model_path: 'https://github.com/cszn/KAIR/releases/download/v1.0/ESRGAN.pth',
    model_url: null,
    scale: 4,
  },
  {
    name: 'R-ESRGAN 4x+ Anime6B',
    model_name: 'R-ESRGAN 4x+ Anime6B',
    model_path: 'https://github.com/xinntao/Real-ESRGAN/releases/download/v0.2.2.4/RealESRGAN_x4plus_anime_6B.pth',
    model_url: null,
    scale: 4,
  },
  {
    name: 'R-ESRGAN 4x+',
    model_name: 'R-ESRGAN 4x+',
    model_path: 'https://github.com/xinntao/Real-ESRGAN/releases/download/v0.1.0/RealESRGAN_x4plus.pth',
    model_url: null,
    scale: 4,
  },
];

/** Error bodies as A1111's handler and FastAPI send them (docs/provider-protocols.md §2.8). */
export const a1111Errors = {
  samplerNotFound: (): A1111Scenario => ({
    kind: 'error',
    status: 400,
    body: { error: 'HTTPException', detail: 'Sampler not found', body: '', errors: '400: Sampler not found' },
  }),
  validation: (): A1111Scenario => ({
    kind: 'error',
    status: 422,
    body: { detail: [{ loc: ['body', 'steps'], msg: 'value is not a valid integer', type: 'type_error.integer' }] },
  }),
  outOfMemory: (): A1111Scenario => ({
    kind: 'error',
    status: 500,
    body: { error: 'OutOfMemoryError', detail: '', body: '', errors: 'CUDA out of memory. Tried to allocate 2.00 GiB' },
  }),
  unavailable: (): A1111Scenario => ({
    kind: 'error',
    status: 503,
    body: { detail: 'Service Unavailable' },
    headers: { 'retry-after': '1' },
  }),
  rateLimited: (seconds = 2): A1111Scenario => ({
    kind: 'error',
    status: 429,
    body: { detail: 'Too Many Requests' },
    headers: { 'retry-after': String(seconds) },
  }),
};

/** GET /sdapi/v1/loras as the built-in Lora extension answers it: name, alias, path and the file's training metadata. */
export const A1111_LORAS = [
  {
    name: 'add_detail',
    alias: 'add_detail',
    path: '/models/Lora/add_detail.safetensors',
    metadata: {
      ss_sd_model_name: 'runwayml/stable-diffusion-v1-5',
      ss_base_model_version: 'sd_v1',
      sshs_model_hash: '7c6bad76eb54f3a1c5f4e0b2c2d43a5dc0b8a4f0e5c7a3e1f2d9b8c7a6e5f4d3',
      ss_tag_frequency: { '10_detail': { detailed: 12, 'sharp focus': 30, intricate: 5 } },
    },
  },
  { name: 'pixel_art_xl', alias: 'pixel-art', path: '/models/Lora/styles/pixel_art_xl.safetensors', metadata: {} },
];

/**
 * The infotext's `Lora hashes: "name: hash, …", ` for the prompt's `<lora:name:weight>` tags the server has (by name or
 * alias; the Lora extension's short hash, 12 hex digits), as A1111 writes it; empty when none is used.
 */
function loraHashesOf(prompt: string, listed: unknown): string {
  const known = Array.isArray(listed)
    ? (listed as Array<{ name?: string; alias?: string; metadata?: Record<string, unknown> }>)
    : [];
  const used: string[] = [];
  for (const match of prompt.matchAll(/<lora:([^:<>]+):[^>]*>/g)) {
    const lora = known.find((l) => l.name === match[1] || l.alias === match[1]);
    const hash = lora?.metadata?.sshs_model_hash;
    if (typeof hash === 'string') used.push(`${match[1]}: ${hash.slice(0, 12)}`);
  }
  return used.length === 0 ? '' : `Lora hashes: "${used.join(', ')}", `;
}

/** What the fake lists beside its checkpoints; `404` answers that endpoint as a server without it does. */
export interface A1111Library {
  /** GET /sdapi/v1/sd-models instead of the two stock checkpoints. */
  sdModels?: unknown;
  /** GET /sdapi/v1/loras; default A1111_LORAS. */
  loras?: unknown;
  /** GET /sdapi/v1/embeddings; default one loaded, one skipped. */
  embeddings?: unknown;
  /** GET /sdapi/v1/sd-vae; default one VAE. */
  vaes?: unknown;
}

export interface FakeA1111Options {
  /** The model library's lists (loras, embeddings, VAEs, checkpoints). */
  library?: A1111Library;
  /** Enables --api-auth with these credentials. */
  auth?: { username: string; password: string };
  /** false: /internal/progress is missing (--nowebui), so clients must fall back to /sdapi/v1/progress. */
  internalProgress?: boolean;
  scenario?: A1111Scenario;
  /** A careless server: the credentials it was sent come back in every field, header and nested object. */
  echoCredentials?: boolean;
  /** GET /sdapi/v1/upscalers; default A1111_UPSCALERS. */
  upscalers?: Array<{
    name: string;
    model_name: string | null;
    model_path: string | null;
    model_url: string | null;
    scale: number;
  }>;
}

interface Task {
  id: string;
  steps: number;
  step: number;
  batch: number;
  seed: number;
  queued: boolean;
  done: boolean;
  interrupted: boolean;
  previewId: number;
  preview?: Buffer;
  startedAt: number;
  finish?: () => void;
}

export interface FakeA1111 {
  url: string;
  requests: LoggedRequest[];
  /** txt2img and img2img requests. */
  generationRequests(): LoggedRequest[];
  interruptRequests(): LoggedRequest[];
  /** Every img2img and upscale request that got past decoding, with the bytes it carried. */
  received: A1111Received[];
  setScenario(next: A1111Scenario | A1111Scenario[]): void;
  setUpscaleScenario(next: A1111UpscaleScenario | A1111UpscaleScenario[]): void;
  close(): Promise<void>;
}

export async function startFakeA1111(options: FakeA1111Options = {}): Promise<FakeA1111> {
  const script = new Script<A1111Scenario>(options.scenario ?? { kind: 'success' });
  const upscaleScript = new Script<A1111UpscaleScenario>({ kind: 'success' });
  const received: A1111Received[] = [];
  const tasks = new Map<string, Task>();
  let current: Task | undefined;
  const timers = new Set<NodeJS.Timeout>();

  const authorized = (header: string | undefined): boolean => {
    if (options.auth === undefined) return true;
    const expected = `Basic ${Buffer.from(`${options.auth.username}:${options.auth.password}`).toString('base64')}`;
    return header === expected;
  };
  let echo = '';
  const json = (res: ServerResponse, status: number, value: unknown, headers: Record<string, string> = {}) =>
    sendText(res, status, JSON.stringify(value), {
      'x-process-time': '0.0012',
      ...(echo === '' ? {} : { 'x-echo': echo }),
      ...headers,
    });

  const fake = await startHttpFake(async (req, res, logged) => {
    const path = logged.path;
    echo = options.echoCredentials === true ? credentialEcho(req.headers) : '';
    if (path.startsWith('/sdapi/') && !authorized(req.headers.authorization)) {
      // A1111's handler rebuilds the 401 without WWW-Authenticate.
      json(
        res,
        401,
        echoEverywhere(
          {
            error: 'HTTPException',
            detail: req.headers.authorization ? 'Incorrect username or password' : 'Not authenticated',
            body: '',
            errors: '401: Incorrect username or password',
          },
          echo,
        ),
      );
      return;
    }
    if (req.method === 'POST' && path === '/sdapi/v1/txt2img') return generation(res, logged);
    if (req.method === 'POST' && path === '/sdapi/v1/img2img') {
      const body = (logged.json ?? {}) as Record<string, unknown>;
      const init = body.init_images;
      // api.py: `if init_images is None: raise HTTPException(404, "Init image not found")`.
      if (!Array.isArray(init) || init.length === 0) return json(res, 404, handlerError(404, 'Init image not found'));
      const images = init.map(decodeImage);
      const mask = body.mask === undefined || body.mask === null ? undefined : decodeImage(body.mask);
      if (images.some((i) => i === null) || mask === null)
        return json(res, 500, handlerError(500, 'Invalid encoded image'));
      received.push({ route: 'img2img', images: images as Buffer[], ...(mask === undefined ? {} : { mask }), body });
      return generation(res, logged);
    }
    if (req.method === 'POST' && path === '/sdapi/v1/extra-single-image') return upscale(res, logged);
    if (req.method === 'GET' && path === '/sdapi/v1/upscalers')
      return json(res, 200, options.upscalers ?? A1111_UPSCALERS);
    if (req.method === 'POST' && path === '/sdapi/v1/interrupt') {
      if (current !== undefined && !current.done) {
        current.interrupted = true;
        current.finish?.();
      }
      json(res, 200, {});
      return;
    }
    if (req.method === 'POST' && path === '/internal/progress') {
      if (options.internalProgress === false) return json(res, 404, { detail: 'Not Found' });
      const body = (logged.json ?? {}) as { id_task?: string; id_live_preview?: number; live_preview?: boolean };
      const task = body.id_task === undefined ? undefined : tasks.get(body.id_task);
      if (task === undefined || task.done || task.queued) {
        return json(res, 200, {
          active: false,
          queued: task?.queued === true,
          completed: task?.done === true,
          progress: null,
          eta: null,
          live_preview: null,
          id_live_preview: -1,
          textinfo: task?.queued ? 'In queue: 1/2' : 'Waiting...',
        });
      }
      const progress = task.step / task.steps;
      const elapsed = (Date.now() - task.startedAt) / 1000;
      const fresh = body.live_preview === true && task.preview !== undefined && task.previewId !== body.id_live_preview;
      return json(res, 200, {
        active: true,
        queued: false,
        completed: false,
        progress,
        eta: progress > 0 ? elapsed / progress - elapsed : null,
        live_preview: fresh ? `data:image/png;base64,${task.preview!.toString('base64')}` : null,
        id_live_preview: fresh ? task.previewId : (body.id_live_preview ?? -1),
        textinfo: echo === '' ? null : `Sampling ${echo}`,
      });
    }
    if (req.method === 'GET' && path === '/sdapi/v1/progress') {
      const task = current !== undefined && !current.done && !current.queued ? current : undefined;
      const state =
        task === undefined
          ? {
              skipped: false,
              interrupted: false,
              stopping_generation: false,
              job: '',
              job_count: 0,
              job_timestamp: '0',
              job_no: 0,
              sampling_step: 0,
              sampling_steps: 0,
            }
          : {
              skipped: false,
              interrupted: task.interrupted,
              stopping_generation: false,
              job: 'scripts_txt2img',
              job_count: 1,
              job_timestamp: '20240601120000',
              job_no: 0,
              sampling_step: task.step,
              sampling_steps: task.steps,
            };
      const progress = task === undefined ? 0 : Math.min(1, 0.01 + task.step / task.steps);
      const skip = logged.query.skip_current_image === 'true';
      return json(res, 200, {
        progress,
        eta_relative: task === undefined ? 0 : 1.5,
        state,
        current_image: task?.preview !== undefined && !skip ? task.preview.toString('base64') : null,
        textinfo: null,
      });
    }
    const listed = (value: unknown) =>
      value === 404 ? json(res, 404, { detail: 'Not Found' }) : json(res, 200, value);
    if (req.method === 'GET' && path === '/sdapi/v1/loras') return listed(options.library?.loras ?? A1111_LORAS);
    if (req.method === 'GET' && path === '/sdapi/v1/embeddings')
      return listed(
        options.library?.embeddings ?? {
          loaded: {
            EasyNegative: { step: null, sd_checkpoint: null, sd_checkpoint_name: null, shape: 768, vectors: 8 },
          },
          skipped: {
            'bad-hands-xl': { step: null, sd_checkpoint: null, sd_checkpoint_name: null, shape: 2048, vectors: 2 },
          },
        },
      );
    if (req.method === 'GET' && path === '/sdapi/v1/sd-vae')
      return listed(
        options.library?.vaes ?? [
          { model_name: 'vae-ft-mse-840000.safetensors', filename: '/models/VAE/vae-ft-mse-840000.safetensors' },
        ],
      );
    if (req.method === 'GET' && path === '/sdapi/v1/sd-models' && options.library?.sdModels !== undefined)
      return listed(options.library.sdModels);
    if (req.method === 'GET' && path === '/sdapi/v1/sd-models') {
      return json(res, 200, [
        ...(echo === ''
          ? []
          : [{ title: echo, model_name: `model ${echo}`, hash: echo, sha256: null, filename: echo, config: null }]),
        {
          title: 'v1-5-pruned-emaonly.safetensors [6ce0161689]',
          model_name: 'v1-5-pruned-emaonly',
          hash: '6ce0161689',
          sha256: null,
          filename: '/models/Stable-diffusion/v1-5-pruned-emaonly.safetensors',
          config: null,
        },
        {
          title: 'sd_xl_base_1.0.safetensors [31e35c80fc]',
          model_name: 'sd_xl_base_1.0',
          hash: '31e35c80fc',
          sha256: null,
          filename: '/models/Stable-diffusion/sd_xl_base_1.0.safetensors',
          config: null,
        },
      ]);
    }
    if (req.method === 'GET' && path === '/sdapi/v1/samplers') {
      return json(res, 200, [
        { name: 'DPM++ 2M', aliases: ['k_dpmpp_2m'], options: {} },
        { name: 'Euler a', aliases: ['k_euler_a', 'k_euler_ancestral'], options: { uses_ensd: 'True' } },
        { name: 'Euler', aliases: ['k_euler'], options: {} },
      ]);
    }
    json(res, 404, { detail: 'Not Found' });
  });

  async function upscale(res: ServerResponse, logged: LoggedRequest): Promise<void> {
    const body = (logged.json ?? {}) as Record<string, unknown>;
    const image = decodeImage(body.image);
    if (image === null) return json(res, 500, handlerError(500, 'Invalid encoded image'));
    received.push({ route: 'extra-single-image', images: [image], body });
    const scenario = upscaleScript.next();
    if (scenario.kind === 'hang') return;
    if (scenario.kind === 'error') return json(res, scenario.status, echoEverywhere(scenario.body, echo));
    if (scenario.kind === 'not_image')
      return json(res, 200, {
        html_info: '<p></p>',
        image: Buffer.from('<html>upscaler crashed</html>').toString('base64'),
      });
    const meta = await sharp(image).metadata();
    const factor = body.resize_mode === 0 && typeof body.upscaling_resize === 'number' ? body.upscaling_resize : 2;
    const scale = scenario.kind === 'wrong_size' ? 1 : factor;
    // modules/upscaler.py: dest = int((side * scale) // 8 * 8).
    const out = makePng(
      Math.floor((meta.width! * scale) / 8) * 8,
      Math.floor((meta.height! * scale) / 8) * 8,
      [10, 200, 90],
    );
    json(res, 200, {
      html_info: `<p>Postprocess upscale by: ${factor}, Postprocess upscaler: ${String(body.upscaler_1)}</p>`,
      image: out.toString('base64'),
    });
  }

  async function generation(res: ServerResponse, logged: LoggedRequest): Promise<void> {
    const scenario = script.next();
    const body = (logged.json ?? {}) as Record<string, unknown>;
    switch (scenario.kind) {
      case 'error':
        json(res, scenario.status, echoEverywhere(scenario.body, echo), scenario.headers);
        return;
      case 'hang':
        return;
      case 'malformed_json':
        sendText(res, 200, '{"images":["iVBOR');
        return;
      case 'invalid_base64':
        json(res, 200, {
          images: ['iVBORw0KGgo%%%not-base64'],
          parameters: body,
          info: pyJson({ seed: 1, all_seeds: [1] }),
        });
        return;
      case 'bad_info':
        json(res, 200, { images: [pngFor(0).toString('base64')], parameters: body, info: 'not json at all' });
        return;
      case 'huge': {
        res.writeHead(200, {
          'content-type': 'application/json',
          ...(scenario.declareLength === true ? { 'content-length': String(scenario.bytes) } : {}),
        });
        streamHugeBody(res, logged, scenario.bytes);
        return;
      }
      case 'cut': {
        const text = JSON.stringify({ images: [pngFor(0).toString('base64')], parameters: body, info: '{}' });
        res.writeHead(200, { 'content-type': 'application/json', 'content-length': String(text.length) });
        res.write(text.slice(0, text.length >> 1));
        setTimeout(() => res.destroy(), 20);
        return;
      }
      case 'success':
        break;
    }
    const route = logged.path.endsWith('img2img') ? 'img2img' : 'txt2img';
    const id = typeof body.force_task_id === 'string' ? body.force_task_id : `task(${route}-${logged.seq})`;
    const steps = typeof body.steps === 'number' ? body.steps : 50;
    const batch = typeof body.batch_size === 'number' ? body.batch_size : 1;
    const seed = typeof body.seed === 'number' && body.seed >= 0 ? body.seed : 1234567890;
    const task: Task = {
      id,
      steps,
      step: 0,
      batch,
      seed,
      queued: (scenario.queuedMs ?? 0) > 0,
      done: false,
      interrupted: false,
      previewId: -1,
      startedAt: Date.now(),
    };
    tasks.set(id, task);
    if (task.queued) await delay(scenario.queuedMs!);
    task.queued = false;
    current = task;
    task.startedAt = Date.now();
    await new Promise<void>((resolve) => {
      task.finish = resolve;
      const tick = () => {
        if (task.interrupted || res.destroyed) return resolve();
        task.step += 1;
        if ((scenario.previewEvery ?? 0) > 0 && task.step % scenario.previewEvery! === 0) {
          task.previewId += 1;
          task.preview = scenario.preview?.(task.step) ?? pngFor(200 + task.step);
        }
        if (task.step >= task.steps) return resolve();
        const timer = setTimeout(() => {
          timers.delete(timer);
          tick();
        }, scenario.stepMs ?? 2);
        timers.add(timer);
      };
      tick();
    });
    task.done = true;
    if (res.destroyed) return;
    // Interrupted: A1111 still answers 200 with what it has (here: partially denoised images).
    const images = Array.from({ length: batch }, (_, i) => pngFor(task.interrupted ? 50 + i : i).toString('base64'));
    const withGrid = scenario.grid === true && batch > 1;
    const seeds = Array.from({ length: batch }, (_, i) => seed + i);
    const tail = echo === '' ? '' : ` ${echo}`;
    const prompt = (typeof body.prompt === 'string' ? body.prompt : '') + tail;
    const negative = typeof body.negative_prompt === 'string' ? body.negative_prompt : '';
    const loraHashes = loraHashesOf(prompt, options.library?.loras ?? A1111_LORAS);
    const infotexts = seeds.map(
      (s) =>
        `${prompt}${negative ? `\nNegative prompt: ${negative}` : ''}\nSteps: ${steps}, Sampler: ${String(body.sampler_name)}, Schedule type: ${String(body.scheduler)}, CFG scale: ${String(body.cfg_scale)}, Seed: ${s}, Size: ${String(body.width)}x${String(body.height)}, Model hash: 6ce0161689, Model: v1-5-pruned-emaonly, ${loraHashes}Version: v1.10.1`,
    );
    const info = pyJson({
      prompt,
      all_prompts: seeds.map(() => prompt),
      negative_prompt: negative,
      seed,
      all_seeds: seeds,
      width: body.width,
      height: body.height,
      sampler_name: body.sampler_name,
      cfg_scale: body.cfg_scale,
      steps,
      batch_size: batch,
      sd_model_name: `v1-5-pruned-emaonly${tail}`,
      sd_model_hash: `6ce0161689${tail}`,
      extra_generation_params: { 'Schedule type': body.scheduler, ...(echo === '' ? {} : { [echo]: echo }) },
      index_of_first_image: withGrid ? 1 : 0,
      infotexts: withGrid ? [infotexts[0], ...infotexts] : infotexts,
      job_timestamp: `20240601120000${tail}`,
      version: `v1.10.1${tail}`,
    });
    json(res, 200, {
      images: withGrid ? [pngFor(99, 16).toString('base64'), ...images] : images,
      parameters: body,
      info,
    });
  }

  return {
    url: fake.url,
    requests: fake.requests,
    generationRequests: () =>
      fake.requests.filter((r) => r.path === '/sdapi/v1/txt2img' || r.path === '/sdapi/v1/img2img'),
    received,
    setUpscaleScenario: (next) => upscaleScript.set(next),
    interruptRequests: () => fake.requests.filter((r) => r.path === '/sdapi/v1/interrupt'),
    setScenario: (next) => script.set(next),
    close: async () => {
      for (const timer of timers) clearTimeout(timer);
      for (const task of tasks.values()) task.finish?.();
      await fake.close();
    },
  };
}

/** A1111's handler shape for an HTTPException (docs/provider-protocols.md §2.8). */
function handlerError(status: number, detail: string): Record<string, unknown> {
  return { error: 'HTTPException', detail, body: '', errors: `${status}: ${detail}` };
}

/** decode_base64_to_image: a data: prefix is stripped; anything that is not base64 of a PNG or JPEG is refused. */
function decodeImage(value: unknown): Buffer | null {
  if (typeof value !== 'string') return null;
  const text = value.startsWith('data:') ? value.slice(value.indexOf(',') + 1) : value;
  if (text.length === 0 || text.length % 4 !== 0 || !/^[A-Za-z0-9+/]*={0,2}$/.test(text)) return null;
  const bytes = Buffer.from(text, 'base64');
  const png = bytes.subarray(0, 4).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47]));
  const jpeg = bytes[0] === 0xff && bytes[1] === 0xd8;
  return png || jpeg ? bytes : null;
}
