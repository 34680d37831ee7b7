import type { EventName, Events } from '../../../shared/contract';
import { EVENT_NAMES } from '../common/contract-constants';
import { Listeners } from './listeners';

/** The part of EventSource this module uses, so tests can hand in a fake. */
export interface EventSourceLike {
  readonly readyState: number;
  onopen: ((event: Event) => void) | null;
  onerror: ((event: Event) => void) | null;
  addEventListener(type: string, listener: (event: MessageEvent) => void): void;
  close(): void;
}
export type EventSourceFactory = (url: string) => EventSourceLike;

export interface Timers {
  setTimeout(fn: () => void, ms: number): unknown;
  clearTimeout(handle: unknown): void;
}

export const BACKOFF_MS = [250, 500, 1_000, 2_000, 5_000, 10_000] as const;

export function backoffDelay(attempt: number): number {
  return BACKOFF_MS[Math.min(attempt, BACKOFF_MS.length - 1)]!;
}

/**
 * One SSE connection to /api/events that reconnects with backoff. It opens lazily on the first subscriber and
 * reports a reconnect (after any drop) so the store can refetch what it may have missed.
 */
export class EventStream {
  private source: EventSourceLike | null = null;
  private attempt = 0;
  private retryHandle: unknown = null;
  private everOpened = false;
  private online = true;
  private readonly byEvent = new Map<EventName, Listeners<unknown>>();
  readonly reconnected = new Listeners<void>();
  readonly connection = new Listeners<boolean>();

  constructor(
    private readonly url: string,
    private readonly factory: EventSourceFactory,
    private readonly timers: Timers,
  ) {}

  on<E extends EventName>(event: E, listener: (payload: Events[E]) => void): () => void {
    let set = this.byEvent.get(event);
    if (set === undefined) {
      set = new Listeners<unknown>();
      this.byEvent.set(event, set);
    }
    const off = set.add(listener as (payload: unknown) => void);
    this.ensureOpen();
    return off;
  }

  ensureOpen(): void {
    if (this.source === null && this.retryHandle === null) this.open();
  }

  close(): void {
    if (this.retryHandle !== null) this.timers.clearTimeout(this.retryHandle);
    this.retryHandle = null;
    this.source?.close();
    this.source = null;
  }

  private open(): void {
    const source = this.factory(this.url);
    this.source = source;
    source.onopen = () => {
      const wasDown = this.everOpened;
      this.everOpened = true;
      this.attempt = 0;
      this.setOnline(true);
      if (wasDown) this.reconnected.emit();
    };
    source.onerror = () => {
      // Reconnect ourselves: the browser gives up for good on a non-200 answer, and we want the backoff.
      source.close();
      if (this.source !== source) return;
      this.source = null;
      this.setOnline(false);
      this.retryHandle = this.timers.setTimeout(() => {
        this.retryHandle = null;
        this.open();
      }, backoffDelay(this.attempt));
      this.attempt += 1;
    };
    for (const name of EVENT_NAMES) {
      source.addEventListener(name, (message) => {
        let payload: unknown;
        try {
          payload = JSON.parse(String(message.data));
        } catch {
          console.error(`Ignored a malformed ${name} event`);
          return;
        }
        this.byEvent.get(name)?.emit(payload);
      });
    }
  }

  private setOnline(online: boolean): void {
    if (online === this.online) return;
    this.online = online;
    this.connection.emit(online);
  }
}
