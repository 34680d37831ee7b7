import type { Api } from '../api';

export interface TrashSize {
  jobs: number;
  images: number;
  bytes: number;
}

/** Walks the trash through the cursor to say exactly what Empty trash removes (shared files may free less). */
export async function measureTrash(api: Api, maxPages = 500): Promise<TrashSize> {
  const size: TrashSize = { jobs: 0, images: 0, bytes: 0 };
  let cursor: string | undefined;
  for (let i = 0; i < maxPages; i += 1) {
    const page = await api.call('jobs.list', { view: 'trash', limit: 200, ...(cursor === undefined ? {} : { cursor }) });
    for (const job of page.items) {
      size.jobs += 1;
      size.images += job.images.length;
      for (const image of job.images) size.bytes += image.bytes;
    }
    if (page.nextCursor === null) break;
    cursor = page.nextCursor;
  }
  return size;
}
