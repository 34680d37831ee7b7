import type { LibraryModel, LoraSpec, ProviderInfo } from '../../../shared/contract';
import { foldForSearch } from '../../../shared/search-fold';
import { kindOfTarget, MAX_LORAS } from '../common/contract-constants';

/** The slider's span; the number box takes the contract's whole range (shared/contract/loras.ts). */
export const SLIDER = { min: -2, max: 2, step: 0.05 } as const;
export const WEIGHT = { min: -4, max: 4 } as const;

export interface LoraChoice {
  model: LibraryModel;
  /** The name this request sends: the chosen server's own, else the library's. */
  sendName: string;
  /** Every server the composer's target covers has it. */
  onServer: boolean;
}

/** The servers a composer target sends to: one instance, or every turned-on instance of an `any:<kind>`. */
export function targetServers(target: string, providers: readonly ProviderInfo[]): ProviderInfo[] {
  const kind = kindOfTarget(target);
  if (kind === undefined) return providers.filter((p) => p.id === target);
  return providers.filter((p) => p.kind === kind && p.enabled);
}

function nameOn(model: LibraryModel, provider: string): string | undefined {
  return model.servers.find((s) => s.provider === provider)?.name;
}

/** The picker's list: LoRAs matching the search, those on the chosen server(s) first, each group as the library sorts. */
export function loraChoices(
  library: readonly LibraryModel[],
  servers: readonly Pick<ProviderInfo, 'id'>[],
  search: string,
): LoraChoice[] {
  const words = foldForSearch(search).split(/\s+/).filter(Boolean);
  const choices: LoraChoice[] = [];
  for (const model of library) {
    if (model.kind !== 'lora') continue;
    const text = foldForSearch([model.name, model.baseModel ?? '', ...model.triggerWords].join('\n'));
    if (!words.every((w) => text.includes(w))) continue;
    const names = servers.map((s) => nameOn(model, s.id));
    const onServer = servers.length > 0 && names.every((n) => n !== undefined);
    choices.push({ model, sendName: names.find((n) => n !== undefined) ?? model.name, onServer });
  }
  // A stable sort keeps the library's order inside each group.
  return choices.sort((a, b) => Number(b.onServer) - Number(a.onServer));
}

/** Adds a LoRA at weight 1 at the end; the list is unchanged when it is already there or full. */
export function addLora(loras: readonly LoraSpec[], name: string): LoraSpec[] {
  if (loras.length >= MAX_LORAS || loras.some((l) => l.name === name)) return [...loras];
  return [...loras, { name, weight: 1 }];
}

export function removeLora(loras: readonly LoraSpec[], index: number): LoraSpec[] {
  return loras.filter((_, i) => i !== index);
}

/** A typed or slid weight, held to the contract's range and to hundredths (the slider's 0.05 steps drift in binary). */
export function clampWeight(weight: number): number {
  if (!Number.isFinite(weight)) return 1;
  return Math.round(Math.min(WEIGHT.max, Math.max(WEIGHT.min, weight)) * 100) / 100;
}

export function setLoraWeight(loras: readonly LoraSpec[], index: number, weight: number): LoraSpec[] {
  return loras.map((l, i) => (i === index ? { ...l, weight: clampWeight(weight) } : l));
}

/** The prompt with the trigger words it lacks added at its end, comma-separated. */
export function withTriggerWords(prompt: string, words: readonly string[]): string {
  const have = foldForSearch(prompt);
  const missing = words.filter((w) => w.trim() !== '' && !have.includes(foldForSearch(w.trim())));
  if (missing.length === 0) return prompt;
  const base = prompt.trimEnd();
  return base === '' ? missing.join(', ') : `${base.replace(/,$/, '')}, ${missing.join(', ')}`;
}

/** Kinds whose model menu lists the files on the server itself: a model not listed there is not on it. */
const FILE_MODEL_KINDS = new Set(['a1111', 'comfyui']);

/**
 * What the chosen server(s) lack, in words, before anything is sent: the model (a file server's own list) and each
 * LoRA (the library's servers; unknown until the library has loaded, then nothing is claimed). Empty: all there.
 */
export function missingOnServers(
  draft: { model: string; loras: readonly LoraSpec[] },
  servers: readonly ProviderInfo[],
  library: readonly LibraryModel[] | null,
  sendsLoras: boolean,
): string[] {
  const problems: string[] = [];
  const lacking = (has: (p: ProviderInfo) => boolean) => servers.filter((p) => !has(p)).map((p) => p.name);
  const where = (names: string[]) =>
    names.length === servers.length && servers.length > 1 ? 'these servers' : names.join(', ');
  if (draft.model !== '') {
    const files = servers.filter((p) => FILE_MODEL_KINDS.has(p.kind) && p.models.length > 0);
    const without = lacking((p) => !files.includes(p) || p.models.includes(draft.model));
    if (without.length > 0) problems.push(`Model “${draft.model}” is not on ${where(without)}.`);
  }
  if (sendsLoras && library !== null) {
    for (const lora of draft.loras) {
      const without = lacking((p) => library.some((m) => m.kind === 'lora' && nameOn(m, p.id) === lora.name));
      if (without.length > 0) problems.push(`LoRA “${lora.name}” is not on ${where(without)}.`);
    }
  }
  return problems;
}
