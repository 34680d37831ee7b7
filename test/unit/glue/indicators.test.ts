import { describe, expect, it } from 'vitest';
import type { JobSummary } from '../../../shared/contract.js';
import { JobIndicators, notificationFor } from '../../../electron/desktop/indicators.js';
import { nativeBindingPath } from '../../../electron/desktop/native-binding.js';

const job = (id: string, status: JobSummary['status'], extra: Partial<JobSummary> = {}): { job: JobSummary } => ({
  job: {
    id,
    status,
    createdAt: 1,
    updatedAt: 2,
    provider: 'builtin',
    prompt: 'a quiet harbour at dawn',
    width: 512,
    height: 512,
    count: 2,
    favorite: false,
    trashedAt: null,
    images: [],
    source: 'atelier',
    ...extra,
  },
});

describe('job indicators', () => {
  it('hides the bar when idle, is indeterminate without fractions, averages known fractions', () => {
    const ind = new JobIndicators();
    expect(ind.current()).toEqual({ progress: -1, running: 0 });
    ind.changed(job('a', 'running'));
    expect(ind.current()).toEqual({ progress: 2, running: 1 });
    ind.progress({ id: 'a', stage: 's', fraction: 0.5, partialImages: 0 });
    ind.changed(job('b', 'running'));
    ind.progress({ id: 'b', stage: 's', fraction: 0.1, partialImages: 0 });
    expect(ind.current().progress).toBeCloseTo(0.3);
    // Progress for a job not known to be running is ignored.
    ind.progress({ id: 'zzz', stage: 's', fraction: 1, partialImages: 0 });
    expect(ind.current().running).toBe(2);
    ind.removed({ ids: ['b'] });
    expect(ind.current()).toEqual({ progress: 0.5, running: 1 });
  });

  it('reports a finish only for a job it saw running, and only for success or failure', () => {
    const ind = new JobIndicators();
    expect(ind.changed(job('q', 'succeeded'))).toBeNull();
    ind.changed(job('c', 'running'));
    expect(ind.changed(job('c', 'cancelled'))).toBeNull();
    ind.changed(job('d', 'running'));
    const images = [{ id: 'i', index: 0, width: 1, height: 1, mime: 'image/png', bytes: 1 }];
    expect(ind.changed(job('d', 'succeeded', { images }))).toEqual({
      id: 'd',
      status: 'succeeded',
      prompt: 'a quiet harbour at dawn',
      images: 1,
    });
    expect(ind.current().progress).toBe(-1);
  });

  it('words notifications briefly', () => {
    expect(notificationFor({ id: 'x', status: 'succeeded', prompt: 'p', images: 3 })).toEqual({
      title: 'Done: 3 images',
      body: 'p',
    });
    const failed = notificationFor({ id: 'x', status: 'failed', prompt: 'y'.repeat(200), images: 0 });
    expect(failed.title).toBe('A generation failed');
    expect(failed.body.length).toBe(80);
  });

  it('finds no native binding when none was built', () => {
    expect(
      nativeBindingPath({ isPackaged: false, appPath: '/nonexistent', platform: 'linux', arch: 'x64' }),
    ).toBeUndefined();
  });
});
