import { expect } from 'vitest';
import type { GenerateRequest } from '../../../shared/contract.js';
import { AppError } from '../../../shared/errors.js';
import sharp from 'sharp';
import type {
  EncodedImage,
  ProviderConfig,
  ProviderContext,
  ProviderProgress,
  RemoteTask,
  SourceImage,
} from '../../../electron/providers/types.js';
import { makePng } from '../../fakes/png.js';

export interface RecordingContext extends ProviderContext {
  controller: AbortController;
  progress: ProviderProgress[];
  partials: EncodedImage[];
  accepted: number;
  /** The remote handles passed to onAccepted, in order. */
  remotes: RemoteTask[];
  traces: { kind: string; message: string; data?: Record<string, unknown> }[];
}

export function recordingContext(): RecordingContext {
  const controller = new AbortController();
  const ctx: RecordingContext = {
    controller,
    signal: controller.signal,
    progress: [],
    partials: [],
    accepted: 0,
    remotes: [],
    traces: [],
    onProgress: (p) => ctx.progress.push(p),
    onPartialImage: (image) => ctx.partials.push(image),
    onAccepted: (remote) => {
      ctx.accepted += 1;
      if (remote !== undefined) ctx.remotes.push(remote);
    },
    trace: (kind, message, data) => ctx.traces.push({ kind, message, ...(data === undefined ? {} : { data }) }),
  };
  return ctx;
}

export function request(overrides: Partial<GenerateRequest> = {}): GenerateRequest {
  return { provider: 'test', prompt: 'a red fox in snow', width: 1024, height: 1024, count: 1, ...overrides };
}

export function config(overrides: Partial<ProviderConfig> = {}): ProviderConfig {
  return { timeoutMs: 10_000, maxResponseBytes: 16 * 1024 * 1024, ...overrides };
}

/** Awaits a rejection and checks it is an AppError with this code; returns it for further assertions. */
export async function rejectsWith(promise: Promise<unknown>, code: AppError['code']): Promise<AppError> {
  const error = await promise.then(
    () => {
      throw new Error(`expected ${code}, but the call succeeded`);
    },
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(AppError);
  const appError = error as AppError;
  expect({ code: appError.code, message: appError.message }).toMatchObject({ code });
  return appError;
}

/** Everything a person or a log could see of an error. */
export function visible(error: AppError): string {
  return JSON.stringify({ message: error.message, details: error.details, body: error.toBody() });
}

export async function waitFor(check: () => boolean, timeoutMs = 3000): Promise<void> {
  const until = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > until) throw new Error('condition not met in time');
    await new Promise((r) => setTimeout(r, 10));
  }
}

/** A port nothing listens on: bind, note, close. */
export async function closedPortUrl(): Promise<string> {
  const { createServer } = await import('node:net');
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  const port = typeof address === 'object' && address !== null ? address.port : 1;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return `http://127.0.0.1:${port}`;
}

/** A source image as the worker hands it over: a real PNG with its size. */
export function sourcePng(width: number, height: number, rgb: [number, number, number] = [30, 90, 160]): SourceImage {
  return { data: makePng(width, height, rgb), mime: 'image/png', width, height };
}

/** An 8-bit grayscale mask PNG as the viewer saves it: white (255) where `paint(x, y)` is true, black elsewhere. */
export async function grayMask(
  width: number,
  height: number,
  paint: (x: number, y: number) => boolean,
): Promise<SourceImage> {
  const raw = Buffer.alloc(width * height);
  for (let y = 0; y < height; y += 1) for (let x = 0; x < width; x += 1) raw[y * width + x] = paint(x, y) ? 255 : 0;
  const data = await sharp(raw, { raw: { width, height, channels: 1 } })
    .png()
    .toBuffer();
  return { data, mime: 'image/png', width, height };
}
