import type { LibraryModel, ModelKind, ModelLibrary, ModelLibraryQuery, ServerModel } from '../../shared/contract.js';
import { foldForSearch } from '../db/fold.js';
import type { ModelUsage, UsageRow } from '../db/model-usage.js';

/** One connected server's list, as the model cache keeps it. */
export interface ServerLibrary {
  provider: string;
  library: readonly ServerModel[];
}

const EXTENSION = /\.(safetensors|ckpt|pt|pth|bin|gguf|sft|onnx)$/i;
// A1111's titles end in the short hash: "name.safetensors [6ce0161689]".
const HASH_SUFFIX = /\s*\[[0-9a-f]{8,64}\]$/i;
/** How many hex digits two hashes must share to be one file: A1111's short hash is the sha256's first 10. */
const HASH_PREFIX = 10;

/** A file's name without folders, extension or A1111's hash suffix, as written (the name the library shows). */
export function displayName(name: string): string {
  const base = name.replace(HASH_SUFFIX, '');
  const file = base.slice(Math.max(base.lastIndexOf('/'), base.lastIndexOf('\\')) + 1);
  const stem = file.replace(EXTENSION, '').trim();
  return stem.length > 0 ? stem : name;
}

/** What two servers' (or an image's) names for one file have in common: the display name, folded. */
export function stemOf(name: string): string {
  return foldForSearch(displayName(name)).trim();
}

interface Entry {
  kind: ModelKind;
  name: string;
  stem: string;
  hash?: string;
  baseModel?: string;
  servers: Array<{ provider: string; name: string }>;
  triggerWords: string[];
  images: number;
  lastUsedAt?: number;
  best?: { jobId: string; rank: number };
}

/** Entries found by hash prefix and by kind and folded name, as they are merged. */
class Entries {
  readonly all: Entry[] = [];
  private readonly byHash = new Map<string, Entry>();
  private readonly byName = new Map<string, Entry>();

  find(kind: ModelKind, stem: string, hash: string | undefined): Entry | undefined {
    if (hash !== undefined) {
      const same = this.byHash.get(`${kind}:${hash.slice(0, HASH_PREFIX)}`);
      if (same !== undefined) return same;
      // A name alone joins an entry that has no hash yet: two different hashes are two files, whatever their names.
      const named = this.byName.get(`${kind}:${stem}`);
      return named?.hash === undefined ? named : undefined;
    }
    return this.byName.get(`${kind}:${stem}`);
  }

  add(entry: Entry): Entry {
    this.all.push(entry);
    this.index(entry);
    return entry;
  }

  index(entry: Entry): void {
    if (entry.hash !== undefined) this.byHash.set(`${entry.kind}:${entry.hash.slice(0, HASH_PREFIX)}`, entry);
    if (!this.byName.has(`${entry.kind}:${entry.stem}`)) this.byName.set(`${entry.kind}:${entry.stem}`, entry);
  }
}

function fromServers(servers: readonly ServerLibrary[]): Entries {
  const entries = new Entries();
  for (const { provider, library } of servers) {
    for (const model of library) {
      const stem = stemOf(model.name);
      const found = entries.find(model.kind, stem, model.hash);
      const entry =
        found ??
        entries.add({
          kind: model.kind,
          name: displayName(model.name),
          stem,
          servers: [],
          triggerWords: [],
          images: 0,
        });
      // The full sha256 wins over a short hash: it is what the key keeps once any server gives it.
      if (model.hash !== undefined && (entry.hash === undefined || model.hash.length > entry.hash.length)) {
        entry.hash = model.hash;
        entries.index(entry);
      }
      if (entry.baseModel === undefined && model.baseModel !== undefined) entry.baseModel = model.baseModel;
      if (entry.triggerWords.length === 0 && model.triggerWords !== undefined) entry.triggerWords = model.triggerWords;
      if (!entry.servers.some((s) => s.provider === provider)) entry.servers.push({ provider, name: model.name });
    }
  }
  return entries;
}

function addUse(entry: Entry, use: UsageRow): void {
  entry.images += use.images;
  entry.lastUsedAt = Math.max(entry.lastUsedAt ?? 0, use.lastUsedAt);
  if (entry.best === undefined || use.bestRank > entry.best.rank)
    entry.best = { jobId: use.bestJobId, rank: use.bestRank };
}

/** The images each entry was made with: a model by the hash its file recorded, else by name; a LoRA by name. */
function withUsage(entries: Entries, usage: ModelUsage): void {
  const hashOf = new Map<string, string>();
  for (const { key, hash } of usage.hashes) if (hash.length >= HASH_PREFIX && !hashOf.has(key)) hashOf.set(key, hash);
  const place = (kind: ModelKind, use: UsageRow, hash: string | undefined) => {
    const stem = stemOf(use.key);
    const entry =
      entries.find(kind, stem, hash) ??
      entries.add({
        kind,
        name: displayName(use.label),
        stem,
        ...(hash === undefined ? {} : { hash }),
        servers: [],
        triggerWords: [],
        images: 0,
      });
    addUse(entry, use);
  };
  for (const use of usage.models) place('checkpoint', use, hashOf.get(use.key));
  for (const use of usage.loras) place('lora', use, undefined);
}

/** Stable across servers and restarts: the hash's first digits where there is one, else the folded name. */
export function entryKey(entry: { kind: ModelKind; stem: string; hash?: string | undefined }): string {
  return `${entry.kind}:${entry.hash === undefined ? entry.stem : entry.hash.slice(0, HASH_PREFIX)}`;
}

const COLLATOR = new Intl.Collator(undefined, { numeric: true, sensitivity: 'base' });
const byName = (a: Merged, b: Merged) => COLLATOR.compare(a.name, b.name) || (a.stem < b.stem ? -1 : 1);
const SORTS: Record<ModelLibraryQuery['sort'], (a: Merged, b: Merged) => number> = {
  used: (a, b) => b.images - a.images || byName(a, b),
  recent: (a, b) => (b.lastUsedAt ?? -1) - (a.lastUsedAt ?? -1) || byName(a, b),
  name: byName,
};

/** An entry as merged, with what filtering needs folded once. */
export interface Merged extends Entry {
  key: string;
  /** Name, base model and trigger words, folded: what the search words are looked for in. */
  text: string;
  foldedBase?: string;
}

export interface MergedLibrary {
  entries: Merged[];
  baseModels: string[];
}

/** Every server's files and every model images know, merged once per change of either (the handler keeps it). */
export function mergeLibrary(servers: readonly ServerLibrary[], usage: ModelUsage): MergedLibrary {
  const entries = fromServers(servers);
  withUsage(entries, usage);
  const merged = entries.all.map((e): Merged => ({
    ...e,
    key: entryKey(e),
    text: foldForSearch([e.name, e.baseModel ?? '', ...e.triggerWords].join('\n')),
    ...(e.baseModel === undefined ? {} : { foldedBase: foldForSearch(e.baseModel) }),
  }));
  const baseModels = [...new Set(merged.flatMap((e) => (e.baseModel === undefined ? [] : [e.baseModel])))].sort();
  return { entries: merged, baseModels };
}

export interface LibraryLookups {
  notes: ReadonlyMap<string, string>;
  previewImage(jobId: string): { imageId: string; rating: number } | undefined;
}

/** The library as asked: filtered by kind, base model and search words, sorted, bounded; previews for what is shown. */
export function queryLibrary(library: MergedLibrary, lookups: LibraryLookups, query: ModelLibraryQuery): ModelLibrary {
  const words = foldForSearch(query.search ?? '')
    .split(/\s+/u)
    .filter((w) => w.length > 0);
  const base = query.baseModel === undefined ? undefined : foldForSearch(query.baseModel);
  const matches = library.entries.filter(
    (e) =>
      (query.kind === undefined || e.kind === query.kind) &&
      (base === undefined || e.foldedBase === base) &&
      words.every((w) => e.text.includes(w)),
  );
  matches.sort(SORTS[query.sort]);
  const items = matches.slice(0, query.limit).map((e): LibraryModel => {
    const note = lookups.notes.get(e.key);
    const preview = e.best === undefined ? undefined : lookups.previewImage(e.best.jobId);
    return {
      key: e.key,
      kind: e.kind,
      name: e.name,
      ...(e.hash === undefined ? {} : { hash: e.hash }),
      ...(e.baseModel === undefined ? {} : { baseModel: e.baseModel }),
      servers: e.servers,
      triggerWords: e.triggerWords,
      ...(note === undefined ? {} : { note }),
      imageCount: e.images,
      ...(e.lastUsedAt === undefined ? {} : { lastUsedAt: e.lastUsedAt }),
      ...(preview === undefined || e.best === undefined
        ? {}
        : {
            preview: {
              imageId: preview.imageId,
              jobId: e.best.jobId,
              ...(preview.rating > 0 ? { rating: preview.rating } : {}),
            },
          }),
    };
  });
  return { items, total: matches.length, baseModels: library.baseModels };
}

export interface LibrarySources extends LibraryLookups {
  servers: readonly ServerLibrary[];
  usage: ModelUsage;
}

/** Merge and query in one call (tests; the handler keeps the merge between calls). */
export function modelLibrary(sources: LibrarySources, query: ModelLibraryQuery): ModelLibrary {
  return queryLibrary(mergeLibrary(sources.servers, sources.usage), sources, query);
}
