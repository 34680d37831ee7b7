import type { ProviderInfo, ProviderKind } from '../../../shared/contract';
import { kindOfTarget, PROVIDER_KINDS } from '../common/contract-constants';
import { KIND_LABEL } from '../../../shared/mapping/settings';

/** The provider a composer target stands for: an instance, or for any:<kind> the first turned-on instance of it. */
export function resolveTarget(id: string, providers: readonly ProviderInfo[]): ProviderInfo | undefined {
  const kind = kindOfTarget(id);
  if (kind === undefined) return providers.find((p) => p.id === id);
  return providers.find((p) => p.kind === kind && p.enabled) ?? providers.find((p) => p.kind === kind);
}

/** The kind of a job's provider: a known instance's, `any:<kind>`'s, or an id that is a kind itself (imported files). */
export function kindOf(id: string, providers: readonly ProviderInfo[]): ProviderKind | undefined {
  const known = providers.find((p) => p.id === id)?.kind ?? kindOfTarget(id);
  if (known !== undefined) return known;
  return (PROVIDER_KINDS as readonly string[]).includes(id) ? (id as ProviderKind) : undefined;
}

export interface TargetOption {
  value: string;
  label: string;
  provider: ProviderInfo;
}

/** Each turned-on instance, and "Any <kind>" wherever a kind has two or more: the scheduler then picks. */
export function targetOptions(enabled: readonly ProviderInfo[]): TargetOption[] {
  const options: TargetOption[] = [];
  for (const kind of PROVIDER_KINDS) {
    const instances = enabled.filter((p) => p.kind === kind);
    if (instances.length > 1)
      options.push({
        value: `any:${kind}`,
        label: `Any ${KIND_LABEL[kind] === 'The built-in generator' ? 'built-in' : KIND_LABEL[kind]} server (${instances.length})`,
        provider: instances[0]!,
      });
    for (const p of instances) options.push({ value: p.id, label: p.name, provider: p });
  }
  // Providers of a kind this build does not know still show, last.
  for (const p of enabled)
    if (!options.some((o) => o.value === p.id)) options.push({ value: p.id, label: p.name, provider: p });
  return options;
}
