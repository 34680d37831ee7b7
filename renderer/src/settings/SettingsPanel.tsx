import { useEffect, useRef, useState, type KeyboardEvent } from 'react';
import type { Settings } from '../../../shared/contract';
import { THEMES } from '../common/contract-constants';
import { useApp } from '../store/context';
import { LibrarySettings } from './LibrarySettings';
import { ProvidersSettings } from './ProvidersSettings';
import { UpdatesSettings } from './UpdatesSettings';
import { WorkSettings } from './WorkSettings';
import { SpendSection } from './spend/SpendSection';
import {
  SETTINGS_SECTIONS,
  lastSection,
  rememberSection,
  sectionAfterKey,
  type SettingsSectionId,
} from './settings-sections';
import './settings.css';

function Appearance({ settings }: { settings: Settings }) {
  const update = useApp((s) => s.updateSettings);
  return (
    <section aria-labelledby="theme-title">
      <h3 id="theme-title">Appearance</h3>
      <div className="chips" role="radiogroup" aria-labelledby="theme-title">
        {THEMES.map((theme) => (
          <button
            key={theme}
            type="button"
            role="radio"
            aria-checked={settings.theme === theme}
            className={settings.theme === theme ? 'chip active' : 'chip'}
            onClick={() => void update({ theme })}
          >
            {theme === 'system' ? 'Follow system' : theme === 'dark' ? 'Dark' : 'Light'}
          </button>
        ))}
      </div>
    </section>
  );
}

function SectionBody({ id, settings }: { id: SettingsSectionId; settings: Settings }) {
  switch (id) {
    case 'appearance':
      return <Appearance settings={settings} />;
    case 'providers':
      return <ProvidersSettings settings={settings} />;
    case 'spend':
      return <SpendSection />;
    case 'work':
      return <WorkSettings settings={settings} />;
    case 'library':
      return <LibrarySettings settings={settings} />;
    case 'updates':
      return <UpdatesSettings />;
  }
}

/** Settings: a list of sections on the left (arrow keys move through it), one section shown, the last one remembered. */
export function SettingsPanel() {
  const settings = useApp((s) => s.settings);
  const providers = useApp((s) => s.providers);
  const setPanel = useApp((s) => s.setPanel);
  const ref = useRef<HTMLDialogElement>(null);
  const tabs = useRef(new Map<SettingsSectionId, HTMLButtonElement>());
  const [active, setActive] = useState<SettingsSectionId>(lastSection);

  // Jobs since the last look may have changed what a provider's card should say.
  const refreshProviders = useApp((s) => s.refreshProviders);
  useEffect(() => void refreshProviders(), [refreshProviders]);

  useEffect(() => {
    const dialog = ref.current;
    if (dialog !== null && !dialog.open) dialog.showModal();
    return () => dialog?.close();
  }, []);

  const show = (id: SettingsSectionId) => {
    setActive(id);
    rememberSection(id);
  };

  // Opened at a group of providers (the empty state's "Add a hosted key"): Providers is shown, the group's heading
  // scrolled to and focused once drawn (settings or providers may still be loading: tried again when they arrive).
  const group = useApp((s) => s.settingsSection);
  const openSettingsAt = useApp((s) => s.openSettingsAt);
  if (group !== null && active !== 'providers') setActive('providers');
  useEffect(() => {
    const heading = group === null ? null : document.getElementById(`providers-${group}`);
    if (heading === null) return;
    heading.scrollIntoView({ block: 'start' });
    heading.focus();
    openSettingsAt(null);
  }, [group, active, settings, providers, openSettingsAt]);

  const onListKey = (event: KeyboardEvent) => {
    const to = sectionAfterKey(active, event.key);
    if (to === null) return;
    event.preventDefault();
    show(to);
    tabs.current.get(to)?.focus();
  };

  return (
    <dialog
      ref={ref}
      className="dialog settings"
      aria-labelledby="settings-title"
      onCancel={(e) => {
        e.preventDefault();
        setPanel('none');
      }}
    >
      <div className="dialog-head">
        <h2 id="settings-title">Settings</h2>
        <button type="button" className="btn small" onClick={() => setPanel('none')}>
          Close
        </button>
      </div>
      <div className="settings-layout">
        <div
          className="settings-nav"
          role="tablist"
          aria-orientation="vertical"
          aria-label="Settings sections"
          onKeyDown={onListKey}
        >
          {SETTINGS_SECTIONS.map(({ id, label }) => (
            <button
              key={id}
              ref={(el) => {
                if (el === null) tabs.current.delete(id);
                else tabs.current.set(id, el);
              }}
              type="button"
              role="tab"
              id={`settings-tab-${id}`}
              aria-selected={active === id}
              aria-controls="settings-section"
              tabIndex={active === id ? 0 : -1}
              className={active === id ? 'settings-tab active' : 'settings-tab'}
              onClick={() => show(id)}
            >
              {label}
            </button>
          ))}
        </div>
        <div
          id="settings-section"
          className="settings-body"
          role="tabpanel"
          aria-labelledby={`settings-tab-${active}`}
          data-section={active}
        >
          {settings === null ? (
            <div className="skeleton line" aria-label="Loading settings" />
          ) : (
            <SectionBody id={active} settings={settings} />
          )}
        </div>
      </div>
    </dialog>
  );
}
