import type { LibraryModel, ModelKind } from '../../../shared/contract';
import { foldForSearch } from '../../../shared/search-fold';
import { formatCount } from '../common/format';

export type ModelSort = 'used' | 'recent' | 'name';
export type KindTab = ModelKind | 'all';

/** What the Models screen shows: the screen filters the whole library on this side, so each keystroke answers at once. */
export interface ModelFilter {
  search: string;
  kind: KindTab;
  /** '' is every base model. */
  baseModel: string;
  sort: ModelSort;
}

export const DEFAULT_MODEL_FILTER: ModelFilter = { search: '', kind: 'all', baseModel: '', sort: 'used' };

export const KIND_TABS: readonly { value: KindTab; label: string }[] = [
  { value: 'all', label: 'All' },
  { value: 'checkpoint', label: 'Checkpoints' },
  { value: 'lora', label: 'LoRAs' },
  { value: 'embedding', label: 'Embeddings' },
  { value: 'vae', label: 'VAEs' },
];

export const KIND_LABEL: Record<ModelKind, string> = {
  checkpoint: 'Checkpoint',
  lora: 'LoRA',
  embedding: 'Embedding',
  vae: 'VAE',
};

export const SORT_LABEL: Record<ModelSort, string> = { used: 'Most used', recent: 'Recent', name: 'A–Z' };

const folded = new WeakMap<LibraryModel, string>();

/** The words a search looks in: the name, the base model and the trigger words, folded as the gallery search folds. */
function haystack(model: LibraryModel): string {
  let text = folded.get(model);
  if (text === undefined) {
    text = foldForSearch([model.name, model.baseModel ?? '', ...model.triggerWords].join('\n'));
    folded.set(model, text);
  }
  return text;
}

/** Every word of the search must be found (in any order); kind and base model narrow. In the library's order. */
function matching(items: readonly LibraryModel[], filter: ModelFilter): LibraryModel[] {
  const words = foldForSearch(filter.search).split(/\s+/).filter(Boolean);
  return items.filter(
    (m) =>
      (filter.kind === 'all' || m.kind === filter.kind) &&
      (filter.baseModel === '' || m.baseModel === filter.baseModel) &&
      (words.length === 0 || words.every((w) => haystack(m).includes(w))),
  );
}

/** What the screen shows for these filters, in the chosen order. */
export function filterModels(items: readonly LibraryModel[], filter: ModelFilter): LibraryModel[] {
  return sortModels(matching(items, filter), filter.sort);
}

const byName = (a: LibraryModel, b: LibraryModel) =>
  a.name.localeCompare(b.name, 'en', { sensitivity: 'base', numeric: true }) || a.key.localeCompare(b.key);

export function sortModels(items: LibraryModel[], sort: ModelSort): LibraryModel[] {
  if (sort === 'name') return items.sort(byName);
  if (sort === 'recent') return items.sort((a, b) => (b.lastUsedAt ?? -1) - (a.lastUsedAt ?? -1) || byName(a, b));
  return items.sort(
    (a, b) => b.imageCount - a.imageCount || (b.lastUsedAt ?? -1) - (a.lastUsedAt ?? -1) || byName(a, b),
  );
}

const DAY = 86_400_000;

/** "today", "yesterday", "3 days ago", "5 weeks ago", "2 years ago": how long since a model was last used. */
export function agoInDays(at: number, now: number): string {
  const days = Math.floor(Math.max(0, now - at) / DAY);
  if (days === 0) return 'today';
  if (days === 1) return 'yesterday';
  if (days < 14) return `${days} days ago`;
  if (days < 60) return `${Math.floor(days / 7)} weeks ago`;
  if (days < 730) return `${Math.floor(days / 30)} months ago`;
  return `${Math.floor(days / 365)} years ago`;
}

/** "123 images · last used 3 days ago"; "No images yet" for a file only a server lists. */
export function usageLine(model: Pick<LibraryModel, 'imageCount' | 'lastUsedAt'>, now: number): string {
  if (model.imageCount === 0) return 'No images yet';
  const count = formatCount(model.imageCount, 'image');
  return model.lastUsedAt === undefined ? count : `${count} · last used ${agoInDays(model.lastUsedAt, now)}`;
}

/** The servers line: each server's name, or that none connected has it. */
export function serversLine(model: Pick<LibraryModel, 'servers'>, nameOf: (provider: string) => string): string {
  if (model.servers.length === 0) return 'Not on any connected server';
  return `On ${[...new Set(model.servers.map((s) => nameOf(s.provider)))].join(', ')}`;
}

/** The gallery search for a model's images: `model:"name"` or `lora:"name"`, quotes and backslashes escaped (shared/query/scan.ts). */
export function imagesQuery(model: Pick<LibraryModel, 'kind' | 'name'>): string | null {
  const key = model.kind === 'checkpoint' ? 'model' : model.kind === 'lora' ? 'lora' : null;
  if (key === null) return null;
  return `${key}:"${model.name.replace(/[\\"]/g, (c) => `\\${c}`)}"`;
}

/** A name as a server or a file writes it ("sub/detail_v2.safetensors") → the library's shown name ("detail_v2"). */
export function shortName(name: string): string {
  const last = name.split(/[\\/]/).pop() ?? name;
  return last.replace(/\.(safetensors|ckpt|pt|pth|bin|gguf)$/i, '');
}

/** How many of each kind (and all) pass the other filters: the kind tabs' counts. */
export function kindCounts(items: readonly LibraryModel[], filter: ModelFilter): Record<KindTab, number> {
  const counts: Record<KindTab, number> = { all: 0, checkpoint: 0, lora: 0, embedding: 0, vae: 0 };
  for (const model of matching(items, { ...filter, kind: 'all' })) {
    counts.all += 1;
    counts[model.kind] += 1;
  }
  return counts;
}
