import { AppError } from '../../../shared/errors';
import {
  adaptDraftToProvider,
  afterGenerate,
  DEFAULT_DRAFT,
  draftFromRequest,
  fingerprint,
  keyForAttempt,
} from '../composer/composer';
import { batchFingerprintRequest, batchRequests, keyOfJob, planBatch } from '../composer/composer-batch';
import { presetFromDraft, draftWithPreset } from '../composer/composer-presets';
import { stepPromptWalk } from '../composer/prompt-walk';
import { kindOf, resolveTarget } from '../composer/composer-targets';
import { capabilitiesFor } from '../composer/capabilities-for';
import { draftLoras } from '../composer/draft-loras';
import { seedOfImage } from '../viewer/image-seed';
import { withInputImage } from '../iterate/iterate';
import { planReferences, withReferences } from '../iterate/references';
import { KIND_LABEL, mapSettings, matchModel } from '../../../shared/mapping/settings';
import type * as RequestValidation from '../composer/request-validation';
import type { SliceCreator } from './deps';
import type { ComposerSlice } from './types';
import { correctedDetail } from '../../../shared/corrections/effective';

// The validator brings zod and the contract: loaded on the first submit (or when the app is idle), never before the grid.
let validation: Promise<typeof RequestValidation> | null = null;
export function loadValidation(): Promise<typeof RequestValidation> {
  validation ??= import('../composer/request-validation');
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

/** A second press of the same request this soon after the first is a double click (the OS default is 400–500 ms). */
export const DOUBLE_PRESS_MS = 500;

export const createComposerSlice: SliceCreator<ComposerSlice> = ({ api, makeKey, now }) => {
  // Plain variables, not store state: set and read in the same tick as the press, before any await or re-render.
  let inFlight = false;
  let lastQueued: { print: string; at: number } | null = null;
  return (set, get) => ({
    draft: DEFAULT_DRAFT,
    fieldErrors: {},
    submitting: false,
    pendingSubmit: null,
    draftNotes: null,
    presets: null,
    presetsError: null,
    promptWalk: { items: null, index: -1, typed: '' },

    updateDraft: (patch) =>
      set((s) => {
        const fieldErrors = { ...s.fieldErrors };
        for (const key of Object.keys(patch)) delete fieldErrors[key];
        // Typing ends a walk through the prompt history; the next ↑ fetches it afresh (it may have grown).
        const promptWalk = 'prompt' in patch ? { items: null, index: -1, typed: '' } : s.promptWalk;
        // A prompt typed over a recalled one is typed text: its lines and {a|b} expand again.
        const literal = 'prompt' in patch ? { promptLiteral: patch.promptLiteral ?? false } : {};
        return { draft: { ...s.draft, ...patch, ...literal }, fieldErrors, promptWalk };
      }),

    chooseProvider(id) {
      const state = get();
      const provider = resolveTarget(id, state.providers);
      if (provider === undefined) {
        set((s) => ({ draft: { ...s.draft, provider: id } }));
        return;
      }
      const fromKind = kindOf(state.draft.provider, state.providers);
      const from = resolveTarget(state.draft.provider, state.providers);
      const before = from === undefined ? undefined : capabilitiesFor(from, state.draft.model);
      const draft = { ...adaptDraftToProvider(state.draft, provider, before), provider: id };
      let notes = state.draftNotes;
      if (fromKind !== undefined && fromKind !== provider.kind && (draft.sampler !== '' || draft.scheduler !== '')) {
        // The sampler's name differs between tools: carried over where it has a match, named where it has none.
        const sampling = {
          width: draft.width,
          height: draft.height,
          ...(draft.sampler === '' ? {} : { sampler: draft.sampler }),
          ...(draft.scheduler === '' ? {} : { scheduler: draft.scheduler }),
        };
        const mapped = mapSettings(sampling, fromKind, provider.kind, {
          capabilities: capabilitiesFor(provider, draft.model),
        });
        draft.sampler = mapped.request.sampler ?? '';
        draft.scheduler = mapped.request.scheduler ?? '';
        notes =
          mapped.warnings.length > 0
            ? { title: `${KIND_LABEL[fromKind]} sampler on ${provider.name}`, warnings: mapped.warnings }
            : null;
      }
      set({ draft, fieldErrors: {}, draftNotes: notes });
    },

    async submit(press) {
      // Everything up to `inFlight = true` runs in the press's own tick: a second press can never slip in between.
      if (inFlight) return;
      const at = press?.at ?? now();
      const state = get();
      const target = resolveTarget(state.draft.provider, state.providers);
      const caps = target === undefined ? undefined : capabilitiesFor(target, state.draft.model);
      const plan = planBatch(state.draft);
      if (!plan.ok) {
        set({ fieldErrors: { prompt: plan.message } });
        return;
      }
      // References the model does not take stay in the composer, named there (iterate/ReferenceStrip.tsx).
      const references = planReferences(state.references, caps, {
        kind: target?.kind,
        hasInput: state.workingFrom !== null,
      });
      const requests = batchRequests(state.draft, caps, plan.prompts).map((request) =>
        withReferences(withInputImage(request, state.workingFrom), references),
      );
      const batch = batchFingerprintRequest(requests);
      const print = fingerprint(batch);
      // The first press may already be queued when the second lands (a fast host): a double click is still one job.
      if (lastQueued !== null && lastQueued.print === print && Math.abs(at - lastQueued.at) < DOUBLE_PRESS_MS) return;
      inFlight = true;
      set({ submitting: true });
      let repeated = 0;
      let queued = 0;
      try {
        const { validateRequest } = await loadValidation();
        for (const [index, request] of requests.entries()) {
          const fieldErrors = validateRequest(request, caps);
          if (Object.keys(fieldErrors).length === 0) continue;
          if (fieldErrors.prompt !== undefined && requests.length > 1)
            fieldErrors.prompt = `Prompt ${index + 1} of ${requests.length}: ${fieldErrors.prompt}`;
          set({ fieldErrors });
          return;
        }
        // Same composed batch, same keys until it is queued: a retry after a dropped connection or a reload is the same submit.
        const pending = keyForAttempt(get().pendingSubmit, batch, makeKey);
        set({ pendingSubmit: pending, fieldErrors: {} });
        for (const [index, request] of requests.entries()) {
          const result = await api.call('jobs.submit', {
            ...request,
            idempotencyKey: keyOfJob(pending.key, index, requests.length),
          });
          get().applyJobChanged(result.job);
          if (result.created) queued += 1;
          else repeated += 1;
        }
        // Done: the next click on Generate is a new request with a new key (unless it is this one's double click).
        if (get().pendingSubmit?.key === pending.key) set({ pendingSubmit: null });
        // The reused seed was for this generation: the next one is random again unless the person kept it.
        set((s) => ({ draft: afterGenerate(s.draft) }));
        lastQueued = { print, at };
        if (requests.length === 1 && repeated === 1)
          get().toast({ kind: 'info', message: 'That request was already queued; nothing was added.' });
        else if (requests.length > 1) {
          const message =
            repeated === 0
              ? `Queued ${queued} jobs, one for each prompt.`
              : `Queued ${queued} new jobs; ${repeated} ${repeated === 1 ? 'was' : 'were'} already queued.`;
          get().toast({ kind: 'info', message });
        }
      } catch (error) {
        const fields = fieldsFrom(error);
        if (fields !== null) set({ fieldErrors: fields });
        else get().reportError(error);
        // Jobs already queued stay queued; a retry with the same batch skips them by their keys.
        if (queued + repeated > 0)
          get().toast({
            kind: 'info',
            message: `${queued + repeated} of ${requests.length} jobs were queued before that; Generate again queues only the rest.`,
          });
      } finally {
        inFlight = false;
        set({ submitting: false });
      }
    },

    reuseSettings(detail, imageId) {
      // What the file says with the person's corrections on top (shared/corrections/effective.ts).
      const job = correctedDetail(detail);
      const state = get();
      const request = { ...job.request };
      // An imported A1111 file keeps its "Schedule type" in the metadata only.
      if (request.scheduler === undefined && request.sampler !== undefined && job.metadata?.scheduler !== undefined)
        request.scheduler = job.metadata.scheduler;
      // An imported file's LoRAs are in its metadata (weights where it gave them, else 1).
      if (request.loras === undefined && job.metadata?.loras !== undefined)
        request.loras = draftLoras(job.metadata.loras);
      const enabled = state.providers.filter((p) => p.enabled);
      let target = resolveTarget(request.provider, enabled);
      let provider = request.provider;
      if (enabled.length > 0 && target === undefined) {
        // An imported file's tool (or a provider turned off since) cannot run it here: one that can takes the settings.
        target = resolveTarget(state.draft.provider, enabled) ?? enabled[0]!;
        provider =
          state.draft.provider === target.id || resolveTarget(state.draft.provider, enabled) === target
            ? state.draft.provider
            : target.id;
        const wanted = state.providers.find((p) => p.id === request.provider)?.name ?? request.provider;
        state.toast({
          kind: 'info',
          message: `${wanted} is not turned on, so these settings are set up for ${target.name}. Turn it on in Settings to use it.`,
        });
      }
      const fromKind = kindOf(request.provider, state.providers);
      let seed = seedOfImage(job, imageId)?.seed;
      let settings: typeof request = request;
      let notes: ComposerSlice['draftNotes'] = null;
      if (
        target !== undefined &&
        fromKind === target.kind &&
        request.model !== undefined &&
        target.models.length > 0 &&
        !target.models.includes(request.model)
      ) {
        // Same tool, another name for the model (an imported file's "Model hash" finds the server's title for it).
        const found = matchModel(request.model, job.metadata?.modelHash, target.models);
        if (found !== undefined) settings = { ...request, model: found };
      } else if (target !== undefined && fromKind !== undefined && fromKind !== target.kind) {
        const mapped = mapSettings(
          {
            ...request,
            ...(seed === undefined ? {} : { seed }),
            ...(job.metadata?.modelHash === undefined ? {} : { modelHash: job.metadata.modelHash }),
          },
          fromKind,
          target.kind,
          { capabilities: target.capabilities, ...(target.models.length > 0 ? { models: target.models } : {}) },
        );
        settings = { ...request, ...mapped.request, provider, count: mapped.request.count ?? request.count };
        for (const key of [
          'model',
          'negativePrompt',
          'steps',
          'guidance',
          'sampler',
          'scheduler',
          'quality',
          'background',
          'outputFormat',
        ] as const) {
          if (mapped.request[key] === undefined) delete settings[key];
        }
        seed = mapped.request.seed;
        if (mapped.warnings.length > 0)
          notes = { title: `${KIND_LABEL[fromKind]} settings on ${target.name}`, warnings: mapped.warnings };
      }
      let draft = draftFromRequest(state.draft, settings, seed);
      if (target !== undefined && provider !== request.provider)
        draft = { ...adaptDraftToProvider(draft, target), provider };
      set({ draft, fieldErrors: {}, pendingSubmit: null, draftNotes: notes });
    },

    dismissNotes: () => set({ draftNotes: null }),

    async loadPresets() {
      try {
        const { items } = await api.call('presets.list', {});
        set({ presets: items, presetsError: null });
      } catch (error) {
        set({ presetsError: error instanceof Error ? error.message : String(error) });
      }
    },

    applyPreset(id) {
      const state = get();
      const preset = state.presets?.find((p) => p.id === id);
      if (preset === undefined) return;
      if (
        preset.provider !== undefined &&
        preset.provider !== state.draft.provider &&
        resolveTarget(
          preset.provider,
          state.providers.filter((p) => p.enabled),
        ) !== undefined
      ) {
        get().chooseProvider(preset.provider);
      }
      set((s) => ({ draft: draftWithPreset(s.draft, preset), fieldErrors: {} }));
    },

    clearTemplate: () => set((s) => ({ draft: { ...s.draft, template: '', templateName: '' } })),

    async savePreset(name) {
      try {
        const { preset } = await api.call('presets.save', presetFromDraft(get().draft, name));
        set((s) => ({
          presets: [...(s.presets ?? []).filter((p) => p.id !== preset.id), preset].sort((a, b) =>
            a.name.localeCompare(b.name),
          ),
        }));
        get().toast({ kind: 'info', message: `Saved the preset “${preset.name}”.` });
        return true;
      } catch (error) {
        get().reportError(error);
        return false;
      }
    },

    async deletePreset(id) {
      try {
        await api.call('presets.delete', { id });
        set((s) => ({ presets: (s.presets ?? []).filter((p) => p.id !== id) }));
        return true;
      } catch (error) {
        get().reportError(error);
        return false;
      }
    },

    async importStyles(csv) {
      try {
        const result = await api.call('presets.importStyles', { csv });
        await get().loadPresets();
        const skipped =
          result.skipped.length === 0
            ? ''
            : ` Skipped ${result.skipped.length}: ${result.skipped
                .slice(0, 3)
                .map((s) => `line ${s.line}, ${s.reason}`)
                .join('; ')}.`;
        get().toast({
          kind: 'info',
          message: `Imported ${result.imported} style${result.imported === 1 ? '' : 's'}${result.updated > 0 ? `, updated ${result.updated}` : ''}.${skipped}`,
        });
        return true;
      } catch (error) {
        get().reportError(error);
        return false;
      }
    },

    async searchPromptHistory(search) {
      const { items } = await api.call('prompts.history', {
        search: search.trim() === '' ? undefined : search,
        limit: 100,
      });
      return items;
    },

    async recallPrompt(direction) {
      let walk = get().promptWalk;
      if (walk.items === null) {
        try {
          const { items } = await api.call('prompts.history', { limit: 100 });
          walk = { items: items.map((i) => i.prompt), index: -1, typed: get().draft.prompt };
        } catch (error) {
          get().reportError(error);
          return false;
        }
      }
      const step = stepPromptWalk(walk, direction);
      if (step === null) {
        set({ promptWalk: walk });
        return false;
      }
      set((s) => {
        const { prompt: _cleared, ...fieldErrors } = s.fieldErrors;
        // A past prompt is sent as written; ↓ back to the start gives back typed text, which expands.
        const promptLiteral = step.walk.index >= 0;
        return { promptWalk: step.walk, draft: { ...s.draft, prompt: step.prompt, promptLiteral }, fieldErrors };
      });
      return true;
    },
  });
};
