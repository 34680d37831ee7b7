import { AppError } from '../../../shared/errors';
import {
  adaptDraftToProvider,
  buildRequest,
  DEFAULT_DRAFT,
  draftFromRequest,
  keyForAttempt,
} from '../lib/composer';
import { seedOfImage } from '../lib/image-seed';
import { withInputImage } from '../lib/iterate';
import type * as RequestValidation from '../lib/request-validation';
import type { SliceCreator } from './deps';
import type { ComposerSlice } from './types';

// The validator brings zod and the contract: loaded on the first submit (or when the app is idle), never before the grid.
let validation: Promise<typeof RequestValidation> | null = null;
export function loadValidation(): Promise<typeof RequestValidation> {
  validation ??= import('../lib/request-validation');
  return validation;
}

function fieldsFrom(error: unknown): Record<string, string> | null {
  if (!(error instanceof AppError) || error.code !== 'invalid_request') return null;
  const fields = error.details?.fields;
  if (typeof fields !== 'object' || fields === null) return null;
  const out: Record<string, string> = {};
  for (const [key, value] of Object.entries(fields)) if (typeof value === 'string') out[key] = value;
  return Object.keys(out).length > 0 ? out : null;
}

export const createComposerSlice: SliceCreator<ComposerSlice> =
  ({ api, makeKey }) =>
  (set, get) => ({
    draft: DEFAULT_DRAFT,
    fieldErrors: {},
    submitting: false,
    pendingSubmit: null,

    updateDraft: (patch) =>
      set((s) => {
        const fieldErrors = { ...s.fieldErrors };
        for (const key of Object.keys(patch)) delete fieldErrors[key];
        return { draft: { ...s.draft, ...patch }, fieldErrors };
      }),

    chooseProvider(id) {
      const provider = get().providers.find((p) => p.id === id);
      if (provider === undefined) set((s) => ({ draft: { ...s.draft, provider: id } }));
      else set((s) => ({ draft: adaptDraftToProvider(s.draft, provider), fieldErrors: {} }));
    },

    async submit() {
      const { validateRequest } = await loadValidation();
      // Read the state only after the wait: a second click meanwhile must see the first one's key and flag.
      const state = get();
      const caps = state.providers.find((p) => p.id === state.draft.provider)?.capabilities;
      const request = withInputImage(buildRequest(state.draft, caps), state.workingFrom);
      const fieldErrors = validateRequest(request, caps);
      if (Object.keys(fieldErrors).length > 0) {
        set({ fieldErrors });
        return;
      }
      // Same composed request, same key: a second click while the first is in flight is the same submit.
      const pending = keyForAttempt(state.pendingSubmit, request, makeKey);
      set({ pendingSubmit: pending, fieldErrors: {} });
      if (state.submitting) return;
      set({ submitting: true });
      try {
        const result = await api.call('jobs.submit', { ...request, idempotencyKey: pending.key });
        get().applyJobChanged(result.job);
        // Done: the next click on Generate is a new request with a new key.
        if (get().pendingSubmit?.key === pending.key) set({ pendingSubmit: null });
        if (!result.created) get().toast({ kind: 'info', message: 'That request was already queued; nothing was added.' });
      } catch (error) {
        const fields = fieldsFrom(error);
        if (fields !== null) set({ fieldErrors: fields });
        else get().reportError(error);
      } finally {
        set({ submitting: false });
      }
    },

    reuseSettings(job, imageId) {
      const state = get();
      let draft = draftFromRequest(state.draft, { ...job.request }, seedOfImage(job, imageId)?.seed);
      const enabled = state.providers.filter((p) => p.enabled);
      if (enabled.length > 0 && !enabled.some((p) => p.id === draft.provider)) {
        // An imported file's tool (or a provider turned off since) cannot run it here: one that can takes the settings.
        const target = enabled.find((p) => p.id === state.draft.provider) ?? enabled[0]!;
        const wanted = state.providers.find((p) => p.id === draft.provider)?.name ?? draft.provider;
        draft = adaptDraftToProvider(draft, target);
        state.toast({ kind: 'info', message: `${wanted} is not turned on, so these settings are set up for ${target.name}. Turn it on in Settings to use it.` });
      }
      set({ draft, fieldErrors: {}, pendingSubmit: null });
    },
  });
