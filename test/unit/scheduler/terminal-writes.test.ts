import { describe, expect, it } from 'vitest';
import { AppError } from '../../../shared/errors.js';
import { createTerminalWrites } from '../../../electron/scheduler/terminal-writes.js';

const full = () => new AppError('storage', 'The disk is full.');

describe('a job’s end kept while the disk refuses it', () => {
  it('is written once the disk takes it again, in order, and announced', () => {
    const written: string[] = [];
    const announced: string[] = [];
    let diskFull = true;
    const writes = createTerminalWrites({ intervalMs: 60_000, onWritten: (id) => announced.push(id) });
    for (const id of ['a', 'b']) {
      writes.defer(id, () => {
        if (diskFull) throw full();
        written.push(id);
      });
    }
    expect(writes.flush()).toBe(2);
    expect(written).toEqual([]);
    diskFull = false;
    expect(writes.flush()).toBe(0);
    expect(written).toEqual(['a', 'b']);
    expect(announced).toEqual(['a', 'b']);
    writes.close();
  });

  it('gives up on a write that fails for another reason, without holding up the rest', () => {
    const written: string[] = [];
    const writes = createTerminalWrites({ intervalMs: 60_000, onWritten: () => undefined });
    writes.defer('purged', () => {
      throw new AppError('not_found', 'There is no job purged.');
    });
    writes.defer('ok', () => written.push('ok'));
    expect(writes.flush()).toBe(0);
    expect(written).toEqual(['ok']);
    writes.close();
  });
});
