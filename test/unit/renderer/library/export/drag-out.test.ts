import { afterEach, describe, expect, it, vi } from 'vitest';
import type { Api } from '../../../../../renderer/src/api';
import { DRAG_TYPE, draggedImages } from '../../../../../renderer/src/curation/drag-images';
import {
  carriesOwnFiles,
  draggingOut,
  endDragOut,
  sortDroppedFiles,
  startImageDrag,
} from '../../../../../renderer/src/library/export/drag-out';
import { exportToPickedFolder } from '../../../../../renderer/src/library/export/export-folder';
import { MAX_DRAG_FILES } from '../../../../../renderer/src/common/contract-constants';
import { AppError } from '../../../../../shared/errors';
import { deferred, fakeApi, flush, idFor } from '../../helpers';

function dragStart() {
  const data = new Map<string, string>();
  const dataTransfer = {
    effectAllowed: 'none',
    get types() {
      return [...data.keys()];
    },
    setData: (type: string, value: string) => void data.set(type, value),
    getData: (type: string) => data.get(type) ?? '',
  };
  return { preventDefault: vi.fn(), dataTransfer };
}

const desktop = (fake: ReturnType<typeof fakeApi>): Api => ({ ...fake.api, host: 'desktop' });
const ids = (n: number) => Array.from({ length: n }, (_, i) => idFor(1000 + i));

afterEach(() => endDragOut());

describe('dragging a card or a selection', () => {
  it('on desktop hands the selected images to the OS drag, instead of the page’s own drag', async () => {
    const fake = fakeApi({ 'desktop.startDrag': async () => ({ files: 3, skipped: 0 }) });
    const event = dragStart();
    expect(startImageDrag(event, desktop(fake), ids(3), vi.fn())).toBe('os');
    expect(event.preventDefault).toHaveBeenCalledTimes(1);
    expect(fake.calls).toEqual([{ channel: 'desktop.startDrag', input: { imageIds: ids(3) } }]);
    expect(event.dataTransfer.types).toEqual([]);
    expect(draggingOut()).toBe(true);
  });

  it('drags one image by imageId, as the viewer does', () => {
    const fake = fakeApi({ 'desktop.startDrag': async () => ({ files: 1, skipped: 0 }) });
    startImageDrag(dragStart(), desktop(fake), ids(1), vi.fn());
    expect(fake.calls[0]!.input).toEqual({ imageId: ids(1)[0] });
  });

  it('in the browser keeps the in-app drag onto boards, and asks nothing of the host', () => {
    const fake = fakeApi();
    const event = dragStart();
    expect(startImageDrag(event, fake.api, ids(2), vi.fn())).toBe('in-app');
    expect(event.preventDefault).not.toHaveBeenCalled();
    expect(draggedImages(event.dataTransfer)).toEqual(ids(2));
    expect(fake.calls).toEqual([]);
    expect(draggingOut()).toBe(false);
  });

  it('beyond what one OS drag carries, falls back to the in-app drag onto boards', () => {
    const fake = fakeApi();
    const event = dragStart();
    expect(startImageDrag(event, desktop(fake), ids(MAX_DRAG_FILES + 1), vi.fn())).toBe('in-app');
    expect(event.dataTransfer.types).toEqual([DRAG_TYPE]);
    expect(fake.calls).toEqual([]);
  });

  it('reports a drag main refused, and is no longer dragging out', async () => {
    const refused = new AppError('not_found', 'None of those images’ files are in the library any more.');
    const onError = vi.fn();
    const fake = fakeApi({ 'desktop.startDrag': async () => Promise.reject(refused) });
    startImageDrag(dragStart(), desktop(fake), ids(2), onError);
    await flush();
    expect(onError).toHaveBeenCalledWith(refused);
    expect(draggingOut()).toBe(false);
  });
});

describe('files dropped back in the window', () => {
  const files = [new File(['a'], 'a.png'), new File(['b'], 'b.png'), new File(['c'], 'c.png')];
  const paths = ['/data/library/a.png', '/data/library/b.png', '/home/me/c.png'];

  it('are split by main into the library’s own drag-out (image ids) and files from elsewhere (to import)', async () => {
    const fake = fakeApi({
      'desktop.droppedImages': async () => ({
        images: [
          { path: paths[1], imageId: ids(2)[1] },
          { path: paths[0], imageId: ids(2)[0] },
        ],
      }),
    });
    const api: Api = { ...desktop(fake), pathsForFiles: () => paths };
    expect(await sortDroppedFiles(api, files)).toEqual({
      imageIds: [ids(2)[1], ids(2)[0]],
      foreign: ['/home/me/c.png'],
    });
    expect(fake.calls).toEqual([{ channel: 'desktop.droppedImages', input: { paths } }]);
  });

  it('are never matched in the browser, nor when there are more than one drag-out carries', async () => {
    const fake = fakeApi();
    expect(await sortDroppedFiles(fake.api, files)).toEqual({ imageIds: [], foreign: [] });
    const many = Array.from({ length: MAX_DRAG_FILES + 1 }, (_, i) => `/home/me/${i}.png`);
    expect(await sortDroppedFiles({ ...desktop(fake), pathsForFiles: () => many }, files)).toEqual({
      imageIds: [],
      foreign: many,
    });
    expect(fake.calls).toEqual([]);
  });

  it('light a board up only while this window’s own OS drag is out', () => {
    const fake = fakeApi({ 'desktop.startDrag': async () => ({ files: 1, skipped: 0 }) });
    expect(carriesOwnFiles({ types: ['Files'] })).toBe(false);
    startImageDrag(dragStart(), desktop(fake), ids(1), vi.fn());
    expect(carriesOwnFiles({ types: ['Files'] })).toBe(true);
    expect(carriesOwnFiles({ types: ['text/plain'] })).toBe(false);
    endDragOut();
    expect(carriesOwnFiles({ types: ['Files'] })).toBe(false);
  });
});

describe('Export to folder… (desktop)', () => {
  const request = { target: { ids: ids(2) }, format: 'folder' as const, manifest: 'csv' as const };

  it('asks for the folder first, then starts the export there', async () => {
    const summary = { id: idFor(1), status: 'running' };
    const fake = fakeApi({
      'desktop.pickFolder': async () => ({ path: '/home/me/exports' }),
      'export.start': async () => ({ export: summary }),
    });
    expect(await exportToPickedFolder(fake.api, request)).toBe(summary);
    expect(fake.calls).toEqual([
      { channel: 'desktop.pickFolder', input: {} },
      { channel: 'export.start', input: { ...request, folder: '/home/me/exports' } },
    ]);
  });

  it('starts nothing when the picker is closed', async () => {
    const picked = deferred<{ path: string | null }>();
    const fake = fakeApi({ 'desktop.pickFolder': () => picked.promise });
    const result = exportToPickedFolder(fake.api, request);
    picked.resolve({ path: null });
    expect(await result).toBeNull();
    expect(fake.calls.map((c) => c.channel)).toEqual(['desktop.pickFolder']);
  });
});
