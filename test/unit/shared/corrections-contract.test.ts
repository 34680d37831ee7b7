import { describe, expect, it } from 'vitest';
import {
  channels,
  CorrectSettings,
  JobDetail,
  RevertCorrections,
  SetImageNote,
  type Handlers,
} from '../../../shared/contract.js';
import { dispatch } from '../../../electron/host/dispatch.js';
import { BRIDGE_CHANNELS } from '../../../electron/host/channel-names.js';

const id = '0190a6e2-0000-7000-8000-000000000001';

describe('corrections and notes are checked in main before anything runs', () => {
  it('corrects settings within what Atelier generates with, and at least one of them', () => {
    expect(CorrectSettings.parse({ jobId: id, set: { prompt: 'a fox', steps: 30 } }).set).toEqual({
      prompt: 'a fox',
      steps: 30,
    });
    expect(CorrectSettings.parse({ jobId: id, set: { seed: '18446744073709551615' } }).set.seed).toBe(
      '18446744073709551615',
    );
    expect(CorrectSettings.parse({ jobId: id, set: { seed: '42' } }).set.seed).toBe(42);
    expect(CorrectSettings.parse({ jobId: id, set: { model: '  sdxl  ' } }).set.model).toBe('sdxl');
    for (const set of [
      {},
      { steps: 0 },
      { steps: 2.5 },
      { guidance: 31 },
      { width: 0 },
      { seed: -1 },
      { model: '   ' },
      { sampler: 'euler\u0007' },
      { scheduler: 'karras' },
      { prompt: 'x'.repeat(32_001) },
    ]) {
      expect(CorrectSettings.safeParse({ jobId: id, set }).success, JSON.stringify(set).slice(0, 40)).toBe(false);
    }
    expect(CorrectSettings.safeParse({ jobId: 'nope', set: { steps: 3 } }).success).toBe(false);
    expect(CorrectSettings.safeParse({ jobId: id, set: { steps: 3 }, extra: 1 }).success).toBe(false);
  });

  it('reverts named fields, or all when none is named', () => {
    expect(RevertCorrections.parse({ jobId: id }).fields).toBeUndefined();
    expect(RevertCorrections.parse({ jobId: id, fields: ['prompt', 'width'] }).fields).toEqual(['prompt', 'width']);
    expect(RevertCorrections.safeParse({ jobId: id, fields: [] }).success).toBe(false);
    expect(RevertCorrections.safeParse({ jobId: id, fields: ['scheduler'] }).success).toBe(false);
  });

  it('keeps a note’s lines and trims its ends; refuses control characters and notes past 10,000 characters', () => {
    expect(SetImageNote.parse({ imageId: id, text: '  one\r\ntwo\tthree \n' }).text).toBe('one\ntwo\tthree');
    expect(SetImageNote.parse({ imageId: id, text: '   ' }).text).toBe('');
    expect(SetImageNote.safeParse({ imageId: id, text: 'bell\u0007' }).success).toBe(false);
    expect(SetImageNote.safeParse({ imageId: id, text: 'x'.repeat(10_001) }).success).toBe(false);
  });

  it('a job’s detail may carry corrections and notes beside what its file says', () => {
    const detail = {
      id,
      status: 'succeeded',
      createdAt: 1,
      updatedAt: 1,
      provider: 'a1111',
      prompt: 'a fox',
      width: 512,
      height: 512,
      count: 1,
      favorite: false,
      trashedAt: null,
      images: [],
      source: 'a1111',
      request: { provider: 'a1111', prompt: 'a fax', width: 512, height: 512, count: 1 },
      corrections: { prompt: 'a fox' },
      notes: [{ imageId: id, text: 'keep', updatedAt: 2 }],
      cancelRequested: false,
      events: [],
    };
    expect(JobDetail.parse(detail).corrections).toEqual({ prompt: 'a fox' });
  });

  it('the channels are in the contract and on the bridge, and a bad payload never reaches the handler', async () => {
    for (const name of ['jobs.correct', 'jobs.revertCorrections', 'images.setNote'] as const) {
      expect(Object.hasOwn(channels, name)).toBe(true);
      expect(BRIDGE_CHANNELS).toContain(name);
    }
    let called = 0;
    const handlers = {
      'jobs.correct': async () => {
        called += 1;
        return { corrections: {} };
      },
    } as unknown as Handlers;
    const refused = await dispatch(handlers, 'jobs.correct', { jobId: id, set: { steps: 999 } });
    expect(refused.ok).toBe(false);
    expect(called).toBe(0);
    const accepted = await dispatch(handlers, 'jobs.correct', { jobId: id, set: { steps: 30 } });
    expect(accepted.ok).toBe(true);
    expect(called).toBe(1);
  });
});
