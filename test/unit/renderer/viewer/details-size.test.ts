import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import type { ImageSummary } from '../../../../shared/contract';
import { DetailsPanel } from '../../../../renderer/src/viewer/DetailsPanel';
import { createAppStore } from '../../../../renderer/src/store/store';
import { AppProvider } from '../../../../renderer/src/store/context';
import { EMPTY_JOBS } from '../../../../renderer/src/store/jobs-model';
import { fakeApi, makeJob } from '../helpers';

const image = (id: string, index: number, width: number, height: number): ImageSummary => ({
  id,
  index,
  width,
  height,
  mime: 'image/png',
  bytes: 10,
});

function detailsHtml(imageId: string | undefined): string {
  const fake = fakeApi({});
  const store = createAppStore({ api: fake.api, makeKey: () => 'k', now: () => 0 });
  // The job's size is what was asked (an upscale ×2 asks for its source's 512²); its images are what came back.
  const job = makeJob({
    id: 'job-1',
    width: 512,
    height: 512,
    count: 2,
    images: [image('a', 0, 1024, 1024), image('b', 1, 768, 1344)],
  });
  store.setState({ jobs: { ...EMPTY_JOBS, byId: { [job.id]: job } } });
  // Server rendering reads the store's initial state (zustand's server snapshot): here, the state set above.
  const rendered = { ...store, getInitialState: store.getState };
  const props = { id: 'job-1', detail: null, imageId, onTrash: () => undefined, onClose: () => undefined };
  const html = renderToStaticMarkup(
    createElement(AppProvider, { store: rendered, api: fake.api, children: createElement(DetailsPanel, props) }),
  );
  return html;
}

describe('Details', () => {
  it("shows the open image's own size, not the size the job asked for", () => {
    expect(detailsHtml('a')).toContain('<dt>Size</dt><dd>1024 × 1024</dd>');
    expect(detailsHtml('b')).toContain('<dt>Size</dt><dd>768 × 1344</dd>');
  });
  it("shows the job's size while it has no image to show", () => {
    expect(detailsHtml(undefined)).toContain('<dt>Size</dt><dd>512 × 512</dd>');
  });
});
