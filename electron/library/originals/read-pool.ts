import { availableParallelism } from 'node:os';
import { Worker } from 'node:worker_threads';

/**
 * The worker's whole program, evaluated as CommonJS: no file to find next to a bundle. It reads exactly `size`
 * bytes from a descriptor the main thread opened through the guarded open (threads share descriptors), hashes
 * them and hands them back by transfer (no copy), so neither the read nor the SHA-256 holds the event loop. A file
 * that grew or shrank since it was opened is refused: those bytes are not the file that was checked.
 */
const WORKER_SOURCE = `
const { parentPort } = require('node:worker_threads');
const { createHash } = require('node:crypto');
const { read } = require('node:fs');
const readAt = (fd, buf, offset, length, position) =>
  new Promise((resolve, reject) => read(fd, buf, offset, length, position, (e, n) => (e ? reject(e) : resolve(n))));
parentPort.on('message', async ({ id, fd, size }) => {
  try {
    const buf = new Uint8Array(new ArrayBuffer(size));
    let at = 0;
    while (at < size) {
      const n = await readAt(fd, buf, at, Math.min(size - at, 8 * 1024 * 1024), at);
      if (n === 0) throw Object.assign(new Error('The file became shorter while it was read.'), { code: 'ESHRUNK' });
      at += n;
    }
    const probe = new Uint8Array(1);
    if ((await readAt(fd, probe, 0, 1, size)) !== 0) throw Object.assign(new Error('The file grew while it was read.'), { code: 'EGREW' });
    const sha256 = createHash('sha256').update(buf).digest('hex');
    parentPort.postMessage({ id, sha256, bytes: buf.buffer }, [buf.buffer]);
  } catch (error) {
    parentPort.postMessage({ id, code: error && error.code, message: String(error && error.message) });
  }
});
`;

type Reply = { id: number; sha256: string; bytes: ArrayBuffer } | { id: number; code?: string; message: string };

export interface ReadResult {
  bytes: Uint8Array;
  sha256: string;
}

/** A few threads that read and hash open files; started on first use, closed with their owner. */
export function createReadPool(threads = Math.max(1, Math.min(2, availableParallelism() - 1))) {
  const workers: Worker[] = [];
  const waiting = new Map<number, { worker: Worker; resolve(r: ReadResult): void; reject(e: Error): void }>();
  let next = 0;
  let turn = 0;
  let closed = false;

  const start = (): Worker => {
    const worker = new Worker(WORKER_SOURCE, { eval: true });
    // Idle workers never keep the process alive.
    worker.unref();
    worker.on('message', (reply: Reply) => {
      const pending = waiting.get(reply.id);
      if (pending === undefined) return;
      waiting.delete(reply.id);
      if ('sha256' in reply) pending.resolve({ bytes: new Uint8Array(reply.bytes), sha256: reply.sha256 });
      else pending.reject(Object.assign(new Error(reply.message), { code: reply.code }));
    });
    worker.on('error', (error) => {
      // A crashed reader fails what it held; the next read starts a fresh one in its place.
      const at = workers.indexOf(worker);
      if (at >= 0) workers.splice(at, 1);
      for (const [id, pending] of waiting) {
        if (pending.worker !== worker) continue;
        waiting.delete(id);
        pending.reject(error);
      }
    });
    workers.push(worker);
    return worker;
  };

  return {
    /** Reads `size` bytes of the open descriptor `fd` (kept open by the caller until this settles). */
    read(fd: number, size: number): Promise<ReadResult> {
      if (closed) return Promise.reject(Object.assign(new Error('Atelier is closing.'), { code: 'ECANCELED' }));
      const worker = workers.length < threads ? start() : workers[(turn = (turn + 1) % workers.length)]!;
      const id = (next += 1);
      return new Promise<ReadResult>((resolve, reject) => {
        waiting.set(id, { worker, resolve, reject });
        worker.postMessage({ id, fd, size });
      });
    },
    async close(): Promise<void> {
      closed = true;
      const all = workers.splice(0);
      await Promise.all(all.map((w) => w.terminate()));
      for (const [id, pending] of waiting) {
        waiting.delete(id);
        pending.reject(Object.assign(new Error('Atelier is closing.'), { code: 'ECANCELED' }));
      }
    },
  };
}

export type ReadPool = ReturnType<typeof createReadPool>;
