import type { SliceCreator } from './deps';
import type { SettingsSlice } from './types';
import { resolveTarget } from '../composer/composer-targets';

export const createSettingsSlice: SliceCreator<SettingsSlice> =
  ({ api }) =>
  (set, get) => ({
    settings: null,
    providers: [],
    stats: null,
    queueWaiting: null,
    providerTests: {},

    async loadSettings() {
      try {
        const [settings, { providers }] = await Promise.all([
          api.call('settings.get', {}),
          api.call('providers.list', {}),
        ]);
        set({ settings, providers });
        const draft = get().draft;
        // any:<kind> stays chosen while the kind has an instance.
        const chosen =
          resolveTarget(draft.provider, providers) !== undefined
            ? draft.provider
            : providers.find((p) => p.enabled)?.id;
        if (chosen !== undefined) get().chooseProvider(chosen);
      } catch (error) {
        get().reportError(error);
      }
    },

    async loadStats() {
      try {
        const stats = await api.call('jobs.stats', {});
        set({ stats, queueWaiting: stats.queue?.waiting ?? null });
      } catch (error) {
        get().reportError(error);
      }
    },

    applyQueueWaiting: (waiting) => set({ queueWaiting: waiting }),

    async updateSettings(patch) {
      try {
        const settings = await api.call('settings.update', patch);
        set({ settings });
        // A job's failure was about the old address or login: with new ones the provider is untested again.
        const reconnected = Object.entries(patch.providers ?? {})
          .filter(
            ([, p]) =>
              p.baseUrl !== undefined || p.username !== undefined || p.apiKey !== undefined || p.password !== undefined,
          )
          .map(([id]) => id);
        if (reconnected.some((id) => get().providerDown[id] !== undefined)) {
          set((s) => ({
            providerDown: Object.fromEntries(
              Object.entries(s.providerDown).filter(([id]) => !reconnected.includes(id)),
            ),
          }));
        }
        // Enabling a provider or setting its key changes what it can do.
        if (patch.providers !== undefined) set({ providers: (await api.call('providers.list', {})).providers });
        return true;
      } catch (error) {
        get().reportError(error);
        return false;
      }
    },

    async refreshProviders() {
      try {
        set({ providers: (await api.call('providers.list', {})).providers });
      } catch (error) {
        get().reportError(error);
      }
    },

    async testProvider(id) {
      set((s) => ({ providerTests: { ...s.providerTests, [id]: 'testing' } }));
      try {
        const result = await api.call('providers.test', { id });
        set((s) => {
          const providerDown = { ...s.providerDown };
          if (result.ok) delete providerDown[id];
          return { providerTests: { ...s.providerTests, [id]: result }, providerDown };
        });
        // The engine kept this test's outcome (Ready, when; Failing, why) and, when it passed, the server's models:
        // list once more so the cards and pickers show both.
        await get().refreshProviders();
      } catch (error) {
        set((s) => {
          const providerTests = { ...s.providerTests };
          delete providerTests[id];
          return { providerTests };
        });
        get().reportError(error);
      }
    },
  });
