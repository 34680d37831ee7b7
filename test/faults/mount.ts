import { execFileSync } from 'node:child_process';
import { closeSync, mkdtempSync, openSync, rmSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
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

/** Whether tmpfs and bind mounts really work here (root with the right to mount): tried once, so test names say which variant ran. */
export const CAN_MOUNT: boolean = (() => {
  // ATELIER_FAULTS_NO_MOUNT=1 runs the fallbacks as root too, to check them.
  if (process.getuid?.() !== 0 || process.env['ATELIER_FAULTS_NO_MOUNT'] === '1') return false;
  const probe = mkdtempSync(join(tmpdir(), 'atelier-mount-probe-'));
  try {
    execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=64k', 'tmpfs', probe], { stdio: 'ignore' });
    execFileSync('umount', [probe], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  } finally {
    rmSync(probe, { recursive: true, force: true });
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

/** Whether `chattr +i` works on files under the temp dir (root on ext4 and friends; not on tmpfs or overlayfs). */
export const CAN_CHATTR: boolean = (() => {
  if (process.getuid?.() !== 0 || process.env['ATELIER_FAULTS_NO_MOUNT'] === '1') return false;
  const probe = mkdtempSync(join(tmpdir(), 'atelier-chattr-probe-'));
  const file = join(probe, 'f');
  try {
    closeSync(openSync(file, 'w'));
    execFileSync('chattr', ['+i', file], { stdio: 'ignore' });
    execFileSync('chattr', ['-i', file], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  } finally {
    rmSync(probe, { recursive: true, force: true });
  }
})();
