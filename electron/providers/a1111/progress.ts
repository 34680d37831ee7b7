import { sleep } from '../http/deadline.js';
import type { CallScope } from '../http/errors.js';
import { decodeDataUri, toImage } from '../http/image.js';
import { joinUrl } from '../http/url.js';
import type { ProviderContext } from '../types.js';

export interface PollerOptions {
  base: string;
  headers: Record<string, string>;
  taskId: string;
  intervalMs: number;
  wantPreview: boolean;
  scope: CallScope;
  context: ProviderContext;
  /** Called once A1111 shows it registered the task (queued, running or completed). */
  onRegistered(): void;
}

export interface TaskState {
  /** Our task is the one running now (so a global interrupt hits it and only it). */
  active: boolean;
  queued: boolean;
  completed: boolean;
}

const POLL_TIMEOUT_MS = 5_000;
const PREVIEW_LIMIT = 16 * 1024 * 1024;

/**
 * Polls A1111 while txt2img blocks: POST /internal/progress with our force_task_id gives per-task progress and
 * live previews; when that route is missing (--nowebui) it falls back to the global GET /sdapi/v1/progress.
 */
export class ProgressPoller {
  mode: 'internal' | 'global' = 'internal';
  state: TaskState = { active: false, queued: false, completed: false };
  private lastPreviewId = -1;
  private lastGlobalPreview: string | undefined;
  private readonly stopper = new AbortController();
  private failures = 0;
  private loop: Promise<void> | undefined;

  constructor(private readonly options: PollerOptions) {}

  start(): void {
    this.loop = this.run();
  }

  async stop(): Promise<void> {
    this.stopper.abort();
    await this.loop;
  }

  /** One fresh look at our task, used right before deciding whether to send the global interrupt. */
  async refresh(): Promise<TaskState> {
    if (this.mode === 'internal') await this.pollInternal(AbortSignal.timeout(2_000), false).catch(() => undefined);
    return this.state;
  }

  private async run(): Promise<void> {
    while (!this.stopper.signal.aborted) {
      const poll = new AbortController();
      const stop = () => poll.abort();
      this.stopper.signal.addEventListener('abort', stop, { once: true });
      const timer = setTimeout(stop, POLL_TIMEOUT_MS);
      try {
        if (this.mode === 'internal') await this.pollInternal(poll.signal, true);
        else await this.pollGlobal(poll.signal);
        this.failures = 0;
      } catch (error) {
        if (this.stopper.signal.aborted) return;
        this.failures += 1;
        // Progress is a nicety: a failing poll is traced once and never fails the job.
        if (this.failures === 1)
          this.options.context.trace(
            'warning',
            `A1111 progress poll failed: ${error instanceof Error ? error.message : String(error)}`,
          );
      } finally {
        clearTimeout(timer);
        this.stopper.signal.removeEventListener('abort', stop);
      }
      await sleep(this.options.intervalMs, this.stopper.signal).catch(() => undefined);
    }
  }

  private async pollInternal(signal: AbortSignal, report: boolean): Promise<void> {
    const { base, headers, taskId, wantPreview } = this.options;
    const response = await fetch(joinUrl(base, 'internal/progress'), {
      method: 'POST',
      headers: { ...headers, 'content-type': 'application/json', accept: 'application/json' },
      body: JSON.stringify({
        id_task: taskId,
        id_live_preview: this.lastPreviewId,
        live_preview: wantPreview && report,
      }),
      signal,
    });
    if (response.status === 404) {
      await response.body?.cancel();
      this.mode = 'global';
      this.options.context.trace(
        'progress',
        'A1111 has no /internal/progress (API-only mode); using the global /sdapi/v1/progress.',
      );
      return;
    }
    if (response.status !== 200) {
      await response.body?.cancel();
      throw new Error(`HTTP ${response.status}`);
    }
    const json = (await readLimitedJson(response)) as Record<string, unknown>;
    this.state = { active: json.active === true, queued: json.queued === true, completed: json.completed === true };
    if (this.state.active || this.state.queued || this.state.completed) this.options.onRegistered();
    if (!report || !this.state.active) {
      if (report && this.state.queued) this.options.context.onProgress({ stage: 'queued' });
      return;
    }
    const fraction = typeof json.progress === 'number' ? clamp(json.progress) : undefined;
    const etaMs = typeof json.eta === 'number' && json.eta >= 0 ? Math.round(json.eta * 1000) : undefined;
    const steps = await this.globalSteps(signal);
    this.options.context.onProgress({
      stage: 'sampling',
      ...(fraction === undefined ? {} : { fraction }),
      ...(etaMs === undefined ? {} : { etaMs }),
      ...steps,
    });
    const previewId = typeof json.id_live_preview === 'number' ? json.id_live_preview : -1;
    if (typeof json.live_preview === 'string' && previewId !== this.lastPreviewId) {
      this.lastPreviewId = previewId;
      this.emitPreview(json.live_preview);
    }
  }

  /** Step counts are only in the global state; valid for us because our task is the active one. */
  private async globalSteps(signal: AbortSignal): Promise<{ step?: number; steps?: number }> {
    try {
      const response = await fetch(joinUrl(this.options.base, 'sdapi/v1/progress', { skip_current_image: 'true' }), {
        headers: { ...this.options.headers, accept: 'application/json' },
        signal,
      });
      if (response.status !== 200) {
        await response.body?.cancel();
        return {};
      }
      const json = (await readLimitedJson(response)) as {
        state?: { sampling_step?: unknown; sampling_steps?: unknown };
      };
      const step = json.state?.sampling_step;
      const steps = json.state?.sampling_steps;
      return typeof step === 'number' && typeof steps === 'number' && steps > 0 ? { step, steps } : {};
    } catch {
      return {};
    }
  }

  private async pollGlobal(signal: AbortSignal): Promise<void> {
    const { base, headers, wantPreview } = this.options;
    const response = await fetch(
      joinUrl(base, 'sdapi/v1/progress', { skip_current_image: wantPreview ? 'false' : 'true' }),
      { headers: { ...headers, accept: 'application/json' }, signal },
    );
    if (response.status !== 200) {
      await response.body?.cancel();
      throw new Error(`HTTP ${response.status}`);
    }
    const json = (await readLimitedJson(response)) as {
      progress?: unknown;
      eta_relative?: unknown;
      current_image?: unknown;
      state?: {
        job?: unknown;
        job_count?: unknown;
        job_no?: unknown;
        sampling_step?: unknown;
        sampling_steps?: unknown;
      };
    };
    const state = json.state ?? {};
    const running = typeof state.job === 'string' && state.job !== '' && state.job_count !== 0;
    // Global progress has no task id: while our request is in flight, a running job is taken to be ours.
    this.state = { active: running, queued: false, completed: false };
    if (!running) return;
    this.options.onRegistered();
    const step = typeof state.sampling_step === 'number' ? state.sampling_step : undefined;
    const steps =
      typeof state.sampling_steps === 'number' && state.sampling_steps > 0 ? state.sampling_steps : undefined;
    // /sdapi/v1/progress adds a 0.01 offset (docs/provider-protocols.md §2.6).
    const fraction = typeof json.progress === 'number' ? clamp(json.progress - 0.01) : undefined;
    const etaMs =
      typeof json.eta_relative === 'number' && json.eta_relative > 0 ? Math.round(json.eta_relative * 1000) : undefined;
    this.options.context.onProgress({
      stage: 'sampling',
      ...(fraction === undefined ? {} : { fraction }),
      ...(etaMs === undefined ? {} : { etaMs }),
      ...(step === undefined || steps === undefined ? {} : { step, steps }),
    });
    if (typeof json.current_image === 'string' && json.current_image !== this.lastGlobalPreview) {
      this.lastGlobalPreview = json.current_image;
      this.emitPreview(json.current_image);
    }
  }

  private emitPreview(text: string): void {
    try {
      const { data } = decodeDataUri(text, this.options.scope, 'a live preview');
      this.options.context.onPartialImage(toImage(data, this.options.scope, 'a live preview'));
    } catch (error) {
      this.options.context.trace(
        'warning',
        `Skipped a live preview: ${error instanceof Error ? error.message : String(error)}`,
      );
    }
  }
}

async function readLimitedJson(response: Response): Promise<unknown> {
  const declared = Number(response.headers.get('content-length') ?? NaN);
  if (Number.isFinite(declared) && declared > PREVIEW_LIMIT) {
    await response.body?.cancel();
    throw new Error('progress response too large');
  }
  const parts: Uint8Array[] = [];
  let total = 0;
  if (response.body === null) return {};
  const reader = response.body.getReader();
  for (;;) {
    const { done, value } = (await reader.read()) as { done: boolean; value?: Uint8Array };
    if (done || value === undefined) break;
    total += value.byteLength;
    if (total > PREVIEW_LIMIT) {
      await reader.cancel();
      throw new Error('progress response too large');
    }
    parts.push(value);
  }
  return JSON.parse(Buffer.concat(parts).toString('utf8')) as unknown;
}

function clamp(value: number): number {
  return Math.max(0, Math.min(1, value));
}
