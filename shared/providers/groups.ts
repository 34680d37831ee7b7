/** Where each provider kind runs, for Settings' groups: this computer, a hosted API, or a GPU rented by the hour. */

export const PROVIDER_GROUPS = ['local', 'hosted', 'rented'] as const;
export type ProviderGroup = (typeof PROVIDER_GROUPS)[number];

export const PROVIDER_GROUP_TITLES: Record<ProviderGroup, string> = {
  local: 'On this computer',
  hosted: 'Hosted',
  rented: 'Rented GPU',
};

// Kinds other work adds (fal, replicate, stability, runpod) are named already: the map runs ahead of the kinds list.
const GROUP_OF_KIND: Readonly<Record<string, ProviderGroup>> = {
  builtin: 'local',
  comfyui: 'local',
  a1111: 'local',
  openai: 'hosted',
  gemini: 'hosted',
  bfl: 'hosted',
  fal: 'hosted',
  replicate: 'hosted',
  stability: 'hosted',
  runpod: 'rented',
};

/** A kind no one has placed yet is shown with the hosted ones (an API somewhere), never hidden. */
export function providerGroup(kind: string): ProviderGroup {
  return Object.prototype.hasOwnProperty.call(GROUP_OF_KIND, kind) ? GROUP_OF_KIND[kind]! : 'hosted';
}

/** Items (provider cards) by group, in the groups' order and each group's given order; empty groups are left out. */
export function groupByWhereItRuns<T extends { kind: string }>(
  items: readonly T[],
): Array<{ group: ProviderGroup; title: string; items: T[] }> {
  return PROVIDER_GROUPS.map((group) => ({
    group,
    title: PROVIDER_GROUP_TITLES[group],
    items: items.filter((item) => providerGroup(item.kind) === group),
  })).filter((g) => g.items.length > 0);
}

/** What the built-in generator is, said plainly wherever it can be picked. */
export const BUILTIN_DESCRIPTION = 'Placeholder scenes, no AI — for trying Atelier out';
