import { execFileSync } from 'node:child_process';
import { closeSync, openSync, writeSync } from 'node:fs';
import { join } from 'node:path';

/** Runs `mount`/`umount` when this process may (root, as in CI); false when it cannot, so the caller falls back. */
export function tryMount(args: string[]): boolean {
  if (!CAN_MOUNT) return false;
  try {
    execFileSync('mount', args, { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

export function unmount(dir: string, lazy = false): void {
  execFileSync('umount', lazy ? ['-l', dir] : [dir], { stdio: 'ignore' });
}

/** Whether bind and tmpfs mounts work here: decided once, so the test names can say which variant ran. */
export const CAN_MOUNT: boolean = (() => {
  // ATELIER_FAULTS_NO_MOUNT=1 runs the fallbacks as root too, to check them.
  if (process.getuid?.() !== 0 || process.env['ATELIER_FAULTS_NO_MOUNT'] === '1') return false;
  try {
    execFileSync('mount', ['--version'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
})();

/** Fills the file system under `dir` to the last byte (our own file, removed to free the space again). */
export function fillDisk(dir: string): string {
  const filler = join(dir, 'filler');
  const fd = openSync(filler, 'w');
  try {
    for (const size of [1 << 16, 1 << 12, 1 << 9, 1]) {
      const chunk = Buffer.alloc(size, 0x61);
      for (;;) {
        try {
          writeSync(fd, chunk);
        } catch (error) {
          if ((error as NodeJS.ErrnoException).code !== 'ENOSPC') throw error;
          break;
        }
      }
    }
  } finally {
    closeSync(fd);
  }
  return filler;
}
