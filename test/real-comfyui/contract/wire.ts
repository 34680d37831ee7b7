import sharp from 'sharp';
import WebSocket from 'ws';

/** One answer as the contract keeps it: status, content type and the parsed body (or its text). */
export interface Answer {
  status: number;
  contentType: string;
  json?: unknown;
  text?: string;
}

/** One WebSocket message: a parsed text message, or a binary frame summarised (its event, metadata and picture). */
export type Heard =
  | { text: { type: string; data: Record<string, unknown> } }
  | {
      binary: {
        event: number;
        imageType?: number;
        meta?: Record<string, unknown>;
        mime?: string;
        size?: [number, number];
      };
    };

export async function call(
  base: string,
  method: 'GET' | 'POST',
  path: string,
  body?: { json?: unknown; raw?: string; form?: FormData },
): Promise<Answer> {
  const init: RequestInit = { method };
  if (body?.json !== undefined) init.body = JSON.stringify(body.json);
  if (body?.raw !== undefined) init.body = body.raw;
  if (body?.form !== undefined) init.body = body.form;
  if (body?.json !== undefined || body?.raw !== undefined) init.headers = { 'content-type': 'application/json' };
  const res = await fetch(`${base}${path}`, init);
  const contentType = (res.headers.get('content-type') ?? '').split(';')[0]!.trim();
  const text = await res.text();
  try {
    return { status: res.status, contentType, json: JSON.parse(text) as unknown };
  } catch {
    return { status: res.status, contentType, text };
  }
}

async function summarise(frame: Buffer): Promise<Heard> {
  const event = frame.readUInt32BE(0);
  let image: Buffer;
  const out: {
    event: number;
    imageType?: number;
    meta?: Record<string, unknown>;
    mime?: string;
    size?: [number, number];
  } = { event };
  if (event === 1) {
    out.imageType = frame.readUInt32BE(4);
    image = frame.subarray(8);
  } else if (event === 4) {
    const length = frame.readUInt32BE(4);
    out.meta = JSON.parse(frame.subarray(8, 8 + length).toString('utf8')) as Record<string, unknown>;
    image = frame.subarray(8 + length);
  } else return { binary: out };
  const meta = await sharp(image).metadata();
  out.mime = meta.format === 'jpeg' ? 'image/jpeg' : `image/${meta.format}`;
  out.size = [meta.width, meta.height];
  return { binary: out };
}

/** A socket on /ws?clientId=… that keeps everything it hears, in order. */
export class Listener {
  readonly heard: Heard[] = [];
  private readonly pending: Promise<void>[] = [];
  private waiters: (() => void)[] = [];
  private socket!: WebSocket;
  closed = false;

  constructor(
    readonly base: string,
    readonly clientId: string,
  ) {}

  async open(featureFlags = true): Promise<this> {
    this.socket = new WebSocket(`${this.base.replace(/^http/, 'ws')}/ws?clientId=${this.clientId}`);
    this.socket.on('message', (data: Buffer, isBinary: boolean) => {
      if (isBinary) {
        // Summarising reads the picture's header asynchronously; its place in the order is kept.
        const slot = this.heard.length;
        this.heard.push({ binary: { event: -1 } });
        this.pending.push(
          summarise(Buffer.from(data)).then((h) => {
            this.heard[slot] = h;
          }),
        );
      } else
        this.heard.push({ text: JSON.parse(data.toString('utf8')) as { type: string; data: Record<string, unknown> } });
      for (const wake of this.waiters.splice(0)) wake();
    });
    this.socket.on('close', () => {
      this.closed = true;
      for (const wake of this.waiters.splice(0)) wake();
    });
    await new Promise<void>((resolve, reject) => {
      this.socket.once('open', () => resolve());
      this.socket.once('error', reject);
    });
    if (featureFlags) {
      this.socket.send(JSON.stringify({ type: 'feature_flags', data: { supports_preview_metadata: true } }));
      // Until the server answers, it has not read ours: a prompt queued now could start before previews are agreed.
      await this.until((h) => 'text' in h && h.text.type === 'feature_flags', 30_000);
    }
    return this;
  }

  /** Waits (event-driven, bounded) until a message satisfies `check`; returns it. */
  async until(check: (h: Heard) => boolean, timeoutMs = 120_000): Promise<Heard> {
    const limit = Date.now() + timeoutMs;
    for (;;) {
      const found = this.heard.find(check);
      if (found !== undefined) return found;
      if (this.closed) throw new Error(`socket ${this.clientId} closed before the awaited message`);
      if (Date.now() > limit) throw new Error(`socket ${this.clientId} did not hear the awaited message in time`);
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, Math.max(1, limit - Date.now()));
        this.waiters.push(() => {
          clearTimeout(timer);
          resolve();
        });
      });
    }
  }

  /** Until `executing {node: null}` for this prompt: the end signal, sent after the history is written. */
  ended(promptId: string, timeoutMs?: number): Promise<Heard> {
    return this.until(
      (h) =>
        'text' in h && h.text.type === 'executing' && h.text.data.node === null && h.text.data.prompt_id === promptId,
      timeoutMs,
    );
  }

  async settled(): Promise<Heard[]> {
    await Promise.all(this.pending);
    return this.heard;
  }

  async close(): Promise<void> {
    if (this.closed) return;
    const closed = new Promise<void>((resolve) => this.socket.once('close', () => resolve()));
    this.socket.close();
    await closed;
    await Promise.all(this.pending);
  }
}
