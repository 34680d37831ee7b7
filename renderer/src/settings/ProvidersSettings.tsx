import type { Settings } from '../../../shared/contract';
import { BUILTIN_DESCRIPTION, groupByWhereItRuns } from '../../../shared/providers/groups';
import { useApp } from '../store/context';
import { AddServer } from './AddServer';
import { FindEngines } from './FindEngines';
import { ProviderSettingsCard } from './ProviderSettingsCard';

/** Settings → Providers: engines found on this computer, one card per server by where it runs, adding a server. */
export function ProvidersSettings({ settings }: { settings: Settings }) {
  const providers = useApp((s) => s.providers);
  return (
    <section aria-labelledby="providers-title">
      <h3 id="providers-title">Providers</h3>
      <FindEngines />
      <AddServer />
      {groupByWhereItRuns(providers).map(({ group, title, items }) => (
        <section key={group} aria-labelledby={`providers-${group}`} data-group={group}>
          <h4 id={`providers-${group}`} className="subsection-title provider-group-title" tabIndex={-1}>
            {title}
          </h4>
          {items.map((provider) => (
            <ProviderSettingsCard
              key={provider.id}
              provider={provider}
              settings={settings.providers[provider.id]}
              {...(provider.kind === 'builtin' ? { note: BUILTIN_DESCRIPTION } : {})}
            />
          ))}
        </section>
      ))}
    </section>
  );
}
