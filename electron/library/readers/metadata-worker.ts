/**
 * A thread that reads images' settings (metadata-pool.ts): whatever a hostile file costs the readers, the host's
 * event loop never waits on it. Run from TypeScript source through tsx, or built as dist/electron/metadata-worker.cjs.
 */
import { platform, setPriority } from 'node:os';
import { parentPort } from 'node:worker_threads';
import { readImageMetadata, type ReadImageOptions } from './read-image.js';

interface Request {
  id: number;
  bytes: Uint8Array;
  options: ReadImageOptions;
  /** The bytes were handed over, not copied: they go back with the answer. */
  handBack: boolean;
}

// Linux keeps a nice value per thread: reading at a lower priority leaves the core to the main loop.
if (platform() === 'linux') {
  try {
    setPriority(0, 10);
  } catch {
    // Not permitted (some sandboxes): read at normal priority.
  }
}

const port = parentPort;
port?.on('message', ({ id, bytes, options, handBack }: Request) => {
  void readImageMetadata(bytes, options).then(
    (read) => {
      try {
        port.postMessage(
          handBack ? { id, read, buffer: bytes.buffer } : { id, read },
          handBack ? [bytes.buffer as ArrayBuffer] : [],
        );
      } catch (error) {
        port.postMessage({ id, error: error instanceof Error ? error.message : String(error) });
      }
    },
    (error: unknown) => port.postMessage({ id, error: error instanceof Error ? error.message : String(error) }),
  );
});
