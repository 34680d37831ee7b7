import type { ServerResponse } from 'node:http';
import { credentialEcho, echoEverywhere } from './echo.js';
import { pngFor } from './png.js';
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

/** Error bodies as A1111's handler and FastAPI send them (protocol reference §2.8). */
export const a1111Errors = {
  samplerNotFound: (): A1111Scenario => ({ kind: 'error', status: 400, body: { error: 'HTTPException', detail: 'Sampler not found', body: '', errors: '400: Sampler not found' } }),
  validation: (): A1111Scenario => ({ kind: 'error', status: 422, body: { detail: [{ loc: ['body', 'steps'], msg: 'value is not a valid integer', type: 'type_error.integer' }] } }),
  outOfMemory: (): A1111Scenario => ({ kind: 'error', status: 500, body: { error: 'OutOfMemoryError', detail: '', body: '', errors: 'CUDA out of memory. Tried to allocate 2.00 GiB' } }),
  unavailable: (): A1111Scenario => ({ kind: 'error', status: 503, body: { detail: 'Service Unavailable' }, headers: { 'retry-after': '1' } }),
  rateLimited: (seconds = 2): A1111Scenario => ({ kind: 'error', status: 429, body: { detail: 'Too Many Requests' }, headers: { 'retry-after': String(seconds) } }),
};

export interface FakeA1111Options {
  /** Enables --api-auth with these credentials. */
  auth?: { username: string; password: string };
  /** false: /internal/progress is missing (--nowebui), so clients must fall back to /sdapi/v1/progress. */
  internalProgress?: boolean;
  scenario?: A1111Scenario;
  /** A careless server: the credentials it was sent come back in every field, header and nested object. */
  echoCredentials?: boolean;
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
  generationRequests(): LoggedRequest[];
  interruptRequests(): LoggedRequest[];
  setScenario(next: A1111Scenario | A1111Scenario[]): void;
  close(): Promise<void>;
}

export async function startFakeA1111(options: FakeA1111Options = {}): Promise<FakeA1111> {
  const script = new Script<A1111Scenario>(options.scenario ?? { kind: 'success' });
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
    sendText(res, status, JSON.stringify(value), { 'x-process-time': '0.0012', ...(echo === '' ? {} : { 'x-echo': echo }), ...headers });

  const fake = await startHttpFake(async (req, res, logged) => {
    const path = logged.path;
    echo = options.echoCredentials === true ? credentialEcho(req.headers) : '';
    if (path.startsWith('/sdapi/') && !authorized(req.headers.authorization)) {
      // A1111's handler rebuilds the 401 without WWW-Authenticate.
      json(res, 401, echoEverywhere({ error: 'HTTPException', detail: req.headers.authorization ? 'Incorrect username or password' : 'Not authenticated', body: '', errors: '401: Incorrect username or password' }, echo));
      return;
    }
    if (req.method === 'POST' && path === '/sdapi/v1/txt2img') return txt2img(res, logged);
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
        return json(res, 200, { active: false, queued: task?.queued === true, completed: task?.done === true, progress: null, eta: null, live_preview: null, id_live_preview: -1, textinfo: task?.queued ? 'In queue: 1/2' : 'Waiting...' });
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
      const state = task === undefined
        ? { skipped: false, interrupted: false, stopping_generation: false, job: '', job_count: 0, job_timestamp: '0', job_no: 0, sampling_step: 0, sampling_steps: 0 }
        : { skipped: false, interrupted: task.interrupted, stopping_generation: false, job: 'scripts_txt2img', job_count: 1, job_timestamp: '20240601120000', job_no: 0, sampling_step: task.step, sampling_steps: task.steps };
      const progress = task === undefined ? 0 : Math.min(1, 0.01 + task.step / task.steps);
      const skip = logged.query.skip_current_image === 'true';
      return json(res, 200, { progress, eta_relative: task === undefined ? 0 : 1.5, state, current_image: task?.preview !== undefined && !skip ? task.preview.toString('base64') : null, textinfo: null });
    }
    if (req.method === 'GET' && path === '/sdapi/v1/sd-models') {
      return json(res, 200, [
        ...(echo === '' ? [] : [{ title: echo, model_name: `model ${echo}`, hash: echo, sha256: null, filename: echo, config: null }]),
        { title: 'v1-5-pruned-emaonly.safetensors [6ce0161689]', model_name: 'v1-5-pruned-emaonly', hash: '6ce0161689', sha256: null, filename: '/models/Stable-diffusion/v1-5-pruned-emaonly.safetensors', config: null },
        { title: 'sd_xl_base_1.0.safetensors [31e35c80fc]', model_name: 'sd_xl_base_1.0', hash: '31e35c80fc', sha256: null, filename: '/models/Stable-diffusion/sd_xl_base_1.0.safetensors', config: null },
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

  async function txt2img(res: ServerResponse, logged: LoggedRequest): Promise<void> {
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
        json(res, 200, { images: ['iVBORw0KGgo%%%not-base64'], parameters: body, info: pyJson({ seed: 1, all_seeds: [1] }) });
        return;
      case 'bad_info':
        json(res, 200, { images: [pngFor(0).toString('base64')], parameters: body, info: 'not json at all' });
        return;
      case 'huge': {
        res.writeHead(200, { 'content-type': 'application/json', ...(scenario.declareLength === true ? { 'content-length': String(scenario.bytes) } : {}) });
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
    const id = typeof body.force_task_id === 'string' ? body.force_task_id : `task(txt2img-${logged.seq})`;
    const steps = typeof body.steps === 'number' ? body.steps : 50;
    const batch = typeof body.batch_size === 'number' ? body.batch_size : 1;
    const seed = typeof body.seed === 'number' && body.seed >= 0 ? body.seed : 1234567890;
    const task: Task = { id, steps, step: 0, batch, seed, queued: (scenario.queuedMs ?? 0) > 0, done: false, interrupted: false, previewId: -1, startedAt: Date.now() };
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
          task.preview = pngFor(200 + task.step);
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
    const infotexts = seeds.map(
      (s) => `${prompt}${negative ? `\nNegative prompt: ${negative}` : ''}\nSteps: ${steps}, Sampler: ${String(body.sampler_name)}, Schedule type: ${String(body.scheduler)}, CFG scale: ${String(body.cfg_scale)}, Seed: ${s}, Size: ${String(body.width)}x${String(body.height)}, Model hash: 6ce0161689, Model: v1-5-pruned-emaonly, Version: v1.10.1`,
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
    json(res, 200, { images: withGrid ? [pngFor(99, 16).toString('base64'), ...images] : images, parameters: body, info });
  }

  return {
    url: fake.url,
    requests: fake.requests,
    generationRequests: () => fake.requests.filter((r) => r.path === '/sdapi/v1/txt2img'),
    interruptRequests: () => fake.requests.filter((r) => r.path === '/sdapi/v1/interrupt'),
    setScenario: (next) => script.set(next),
    close: async () => {
      for (const timer of timers) clearTimeout(timer);
      for (const task of tasks.values()) task.finish?.();
      await fake.close();
    },
  };
}
