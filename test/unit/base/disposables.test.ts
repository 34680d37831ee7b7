import { describe, expect, it } from 'vitest';
import { createDisposableStore } from '../../../electron/base/disposables.js';
import { createSignal } from '../../../electron/base/events.js';

function recordingLog() {
  const errors: Array<{ message: string; fields?: Record<string, unknown> }> = [];
  return {
    errors,
    log: {
      info: () => undefined,
      warn: () => undefined,
      error: (message: string, fields?: Record<string, unknown>) =>
        void errors.push({ message, ...(fields === undefined ? {} : { fields }) }),
    },
  };
}

describe('the disposable store', () => {
  it('closes services in reverse order of registration, each awaited before the next', async () => {
    const order: string[] = [];
    const store = createDisposableStore();
    store.add('store', () => void order.push('store'));
    store.add('scheduler', async () => {
      await Promise.resolve();
      order.push('scheduler');
    });
    store.add('importer', () => void order.push('importer'));
    await store.close();
    expect(order).toEqual(['importer', 'scheduler', 'store']);
  });

  it('logs a close that fails and still closes the rest', async () => {
    const { log, errors } = recordingLog();
    const closed: string[] = [];
    const store = createDisposableStore(log);
    store.add('store', () => void closed.push('store'));
    store.add('watcher', () => {
      throw new Error('EBUSY');
    });
    await store.close();
    expect(closed).toEqual(['store']);
    expect(errors).toEqual([
      { message: 'could not close a service', fields: { service: 'watcher', error: 'Error: EBUSY' } },
    ]);
  });

  it('closes once however often it is asked, and refuses a service registered after', async () => {
    let count = 0;
    const store = createDisposableStore();
    store.add('store', () => void count++);
    await Promise.all([store.close(), store.close()]);
    await store.close();
    expect(count).toBe(1);
    expect(() => store.add('late', () => undefined)).toThrow(/after its store closed/);
  });
});

describe('a signal joins two services after both exist', () => {
  it('delivers to every subscriber until it unsubscribes', () => {
    const signal = createSignal<[id: string]>();
    const seen: string[] = [];
    const stop = signal.on((id) => seen.push(`a:${id}`));
    signal.on((id) => seen.push(`b:${id}`));
    signal.emit('1');
    stop();
    signal.emit('2');
    expect(seen).toEqual(['a:1', 'b:1', 'b:2']);
  });
});
