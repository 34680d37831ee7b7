import { readdirSync, readFileSync } from 'node:fs';
import { getPriority } from 'node:os';
import { describe, expect, it } from 'vitest';
import { createBuiltinProvider } from '../../../electron/providers/builtin/index.js';
import { config, recordingContext, request } from './builtin-helpers.js';

/** Linux: every thread of this process with its nice value (field 19 of /proc/self/task/<tid>/stat). */
function threadNice(): Map<number, number> {
  const nice = new Map<number, number>();
  for (const tid of readdirSync('/proc/self/task')) {
    const stat = readFileSync(`/proc/self/task/${tid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    nice.set(Number(tid), Number(fields[16]));
  }
  return nice;
}

describe('built-in render priority', () => {
  it('renders at a lower priority than the main loop: on Linux the render thread alone runs at nice 10', async () => {
    const linux = process.platform === 'linux';
    const mainBefore = getPriority();
    const before = linux ? threadNice() : new Map<number, number>();
    const provider = createBuiltinProvider({ size: 1 });
    try {
      const output = await provider.generate(request(), config, recordingContext().context);
      expect(output.images).toHaveLength(1);
      if (linux) {
        const after = threadNice();
        const started = [...after].filter(([tid]) => !before.has(tid));
        expect(started.filter(([, nice]) => nice === 10)).toHaveLength(1);
        expect(after.get(process.pid)).toBe(before.get(process.pid));
      }
      // The process (its main loop) keeps the priority it had, wherever it runs.
      expect(getPriority()).toBe(mainBefore);
    } finally {
      await provider.close();
    }
  });
});
