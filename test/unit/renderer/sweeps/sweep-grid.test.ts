import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import type { ImageSummary, SweepDetail } from '../../../../shared/contract';
import { SweepGrid } from '../../../../renderer/src/sweeps/SweepGrid';
import { AppProvider } from '../../../../renderer/src/store/context';
import { createAppStore } from '../../../../renderer/src/store/store';
import { EMPTY_JOBS } from '../../../../renderer/src/store/jobs-model';
import { fakeApi, makeJob } from '../helpers';

const image = (id: string, width = 512, height = 768): ImageSummary => ({
  id,
  index: 0,
  width,
  height,
  mime: 'image/png',
  bytes: 10,
});

function gridHtml(detail: SweepDetail, page = 0, rated?: { jobId: string; rating: number }): string {
  const fake = fakeApi({});
  const store = createAppStore({ api: fake.api, makeKey: () => 'k', now: () => 0 });
  const jobs = detail.cells.flatMap((c) => (c.job === null ? [] : [c.job]));
  const byId = Object.fromEntries(jobs.map((j) => [j.id, j]));
  // The app's copy of a job (a rating just given) is what the cell shows, over the sweep's older copy.
  if (rated !== undefined) {
    const held = byId[rated.jobId]!;
    byId[rated.jobId] = { ...held, images: held.images.map((m) => ({ ...m, rating: rated.rating })) };
  }
  store.setState({ jobs: { ...EMPTY_JOBS, byId }, sweepView: { id: detail.id, detail, page, error: null } });
  const rendered = { ...store, getInitialState: store.getState };
  return renderToStaticMarkup(
    createElement(AppProvider, { store: rendered, api: fake.api, children: createElement(SweepGrid) }),
  );
}

const done = makeJob({ images: [image('img-a')] });
const queued = makeJob({ status: 'queued' });
const failed = makeJob({ status: 'failed', error: { code: 'provider_error', message: 'out of memory' } });
const onPage1 = makeJob({ images: [image('img-z')] });

const DETAIL: SweepDetail = {
  id: 'sw-1',
  name: 'sampler × CFG',
  createdAt: 1,
  axes: [
    { field: 'sampler', values: ['euler', 'dpm++ 2m'] },
    { field: 'guidance', values: ['4', '8'] },
    { field: 'seed', values: ['1', '2'] },
  ],
  cellCount: 8,
  succeeded: 2,
  failed: 1,
  pending: 1,
  base: { provider: 'builtin', prompt: 'a fox', width: 512, height: 768, count: 1 },
  cells: [
    { x: 0, y: 0, z: 0, job: done },
    { x: 1, y: 0, z: 0, job: queued },
    { x: 0, y: 1, z: 0, job: failed },
    { x: 1, y: 1, z: 0, job: null },
    { x: 0, y: 0, z: 1, job: onPage1 },
  ],
};

describe('the sweep grid', () => {
  it('labels X across and Y down with the field names, and Z as pages', () => {
    const html = gridHtml(DETAIL);
    expect(html).toContain('Sampler →');
    expect(html).toContain('CFG ↓');
    expect(html).toMatch(/class="sweep-label x"[^>]*>euler</);
    expect(html).toMatch(/class="sweep-label x"[^>]*>dpm\+\+ 2m</);
    expect(html).toMatch(/class="sweep-label y"[^>]*>8</);
    expect(html).toContain('aria-current="page">Seed 1</button>');
    expect(html).toContain('Re-run failed (2)');
  });

  it('shows each cell as it is: its picture, waiting, failed with the reason, or missing', () => {
    const html = gridHtml(DETAIL);
    expect(html).toContain('src="/media/thumb/img-a"');
    expect(html).toMatch(/data-state="Queued…"/);
    expect(html).toContain('Queued…');
    expect(html).toMatch(/data-state="failed"/);
    expect(html).toContain('out of memory');
    expect(html).toMatch(/data-state="missing"/);
    expect(html).not.toContain('img-z');
  });

  it('shows the page chosen, and a rating from the app’s jobs', () => {
    expect(gridHtml(DETAIL, 1)).toContain('src="/media/thumb/img-z"');
    expect(gridHtml(DETAIL, 0, { jobId: done.id, rating: 3 })).toContain('Sampler euler, CFG 4: rated 3');
  });
});
