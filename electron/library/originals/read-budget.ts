/**
 * Bytes of files held in memory at once, across every reader in the process (import, thumbnails, exports, jobs,
 * media): reads wait their turn rather than add up past it. First come, first served, so a large file is not
 * overtaken for ever by small ones.
 */
export interface ReadBudget {
  /** Resolves once `bytes` fit; call the returned function (once) when they are no longer held. */
  acquire(bytes: number): Promise<() => void>;
  /** Bytes held now (for tests and stats). */
  inUse(): number;
  /** Reads waiting for room now. */
  waiting(): number;
}

export function createReadBudget(totalBytes: number): ReadBudget {
  let used = 0;
  let holders = 0;
  const waiting: Array<{ bytes: number; grant(): void }> = [];

  const pump = (): void => {
    for (;;) {
      const head = waiting[0];
      // A file larger than the whole budget still goes, alone.
      if (head === undefined || (holders > 0 && used + head.bytes > totalBytes)) return;
      waiting.shift();
      used += head.bytes;
      holders += 1;
      head.grant();
    }
  };

  return {
    acquire(bytes) {
      const size = Math.max(0, bytes);
      return new Promise((resolve) => {
        waiting.push({
          bytes: size,
          grant: () => {
            let released = false;
            resolve(() => {
              if (released) return;
              released = true;
              used -= size;
              holders -= 1;
              pump();
            });
          },
        });
        pump();
      });
    },
    inUse: () => used,
    waiting: () => waiting.length,
  };
}

/** The whole process's budget: two of the largest files Atelier reads at once, never six. */
export const READ_BUDGET_BYTES = 1024 * 1024 * 1024;

let shared: ReadBudget | undefined;

/** The one budget every reader in this process shares unless a test gives its own. */
export function processReadBudget(): ReadBudget {
  shared ??= createReadBudget(READ_BUDGET_BYTES);
  return shared;
}
