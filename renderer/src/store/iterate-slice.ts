import type { ImageSummary, JobSummary } from '../../../shared/contract';
import { AppError } from '../../../shared/errors';
import { buildRequest, type RequestWithoutKey } from '../composer/composer';
import { capabilitiesFor } from '../composer/capabilities-for';
import {
  DEFAULT_STRENGTH,
  fitSize,
  inpaintRequest,
  providerFor,
  supportFor,
  upscaleRequest,
  variationCount,
  variationProvider,
  variationRequest,
} from '../iterate/iterate';
import { addReference, removeReference } from '../iterate/references';
import { encodeMaskPng, toBase64 } from '../iterate/mask-brush';
import { planBatch } from '../composer/composer-batch';
import { loadValidation } from './composer-slice';
import type { SliceCreator } from './deps';
import type { IterateSlice } from './types';

/** A new input (or none) answers the engine's complaint about the old one. */
function withoutInputErrors(errors: Record<string, string>): Record<string, string> {
  const { inputImage: _i, mask: _m, ...rest } = errors;
  return rest;
}

/** Changed references answer the engine's complaint about the old ones. */
function withoutReferenceErrors(errors: Record<string, string>): Record<string, string> {
  const { referenceImages: _r, ...rest } = errors;
  return rest;
}

function findImage(job: JobSummary | undefined, imageId: string): ImageSummary | undefined {
  return job?.images.find((i) => i.id === imageId);
}

export const createIterateSlice: SliceCreator<IterateSlice> =
  ({ api, makeKey }) =>
  (set, get) => {
    /** Validates and queues one request; a refusal becomes one toast that says why. */
    async function queue(request: RequestWithoutKey, done: string): Promise<boolean> {
      const { validateRequest } = await loadValidation();
      const state = get();
      const target = providerFor(state.providers, request.provider);
      const caps = target === undefined ? undefined : capabilitiesFor(target, request.model);
      const problems = Object.values(validateRequest(request, caps));
      if (problems.length > 0) {
        state.toast({ kind: 'error', message: problems.join(' ') });
        return false;
      }
      set({ iterating: true });
      try {
        const result = await api.call('jobs.submit', { ...request, idempotencyKey: makeKey() });
        get().applyJobChanged(result.job);
        get().toast({ kind: 'info', message: done });
        return true;
      } catch (error) {
        const fields = error instanceof AppError ? error.details?.fields : undefined;
        const text =
          typeof fields === 'object' && fields !== null
            ? Object.values(fields).filter((v) => typeof v === 'string')
            : [];
        get().toast({
          kind: 'error',
          message:
            text.length > 0 ? text.join(' ') : error instanceof Error ? error.message : 'That could not be queued.',
        });
        return false;
      } finally {
        set({ iterating: false });
      }
    }

    return {
      workingFrom: null,
      editing: null,
      iterating: false,

      useAsInput(jobId, imageId) {
        const state = get();
        const image = findImage(state.jobs.byId[jobId], imageId);
        if (image === undefined) return;
        const strength = state.workingFrom?.strength ?? DEFAULT_STRENGTH;
        const source = state.jobs.byId[jobId];
        set((s) => ({
          workingFrom: { jobId, imageId, strength, width: image.width, height: image.height },
          fieldErrors: withoutInputErrors(s.fieldErrors),
        }));
        // The result comes out the source's size unless the person changes it.
        const chosen = providerFor(state.providers, state.draft.provider);
        const [width, height] = fitSize(
          image.width,
          image.height,
          chosen === undefined ? undefined : capabilitiesFor(chosen, state.draft.model),
        );
        // Work from this image starts from its prompt, sent as written, not whatever the composer held before.
        const recalled =
          source === undefined || source.prompt === '' ? {} : { prompt: source.prompt, promptLiteral: true };
        state.updateDraft({ width, height, ...recalled });
      },
      references: [],
      addReference(jobId, imageId) {
        const { list, outcome } = addReference(get().references, { jobId, imageId });
        if (outcome !== 'added') {
          const support = get().supportOf('addReference', jobId, imageId);
          get().toast({ kind: 'error', message: support.reason ?? 'That image cannot be added.' });
          return false;
        }
        set((s) => ({ references: list, fieldErrors: withoutReferenceErrors(s.fieldErrors) }));
        get().toast({
          kind: 'info',
          message: `Added as reference ${list.length} in the composer.`,
          replaces: 'reference-added',
        });
        return true;
      },
      removeReference: (imageId) =>
        set((s) => ({
          references: removeReference(s.references, imageId),
          fieldErrors: withoutReferenceErrors(s.fieldErrors),
        })),
      clearReferences: () => set((s) => ({ references: [], fieldErrors: withoutReferenceErrors(s.fieldErrors) })),
      setInputStrength: (strength) =>
        set((s) =>
          s.workingFrom === null
            ? {}
            : { workingFrom: { ...s.workingFrom, strength: Math.min(1, Math.max(0, strength)) } },
        ),
      clearInput: () => set((s) => ({ workingFrom: null, fieldErrors: withoutInputErrors(s.fieldErrors) })),
      openEditor: (jobId, imageId) => set({ editing: { jobId, imageId } }),
      closeEditor: () => set({ editing: null }),

      supportOf(action, jobId, imageId) {
        const state = get();
        const job = state.jobs.byId[jobId];
        const image = imageId === undefined ? undefined : findImage(job, imageId);
        return supportFor(action, {
          providers: state.providers,
          composerProvider: state.draft.provider,
          composerModel: state.draft.model,
          job,
          image,
          references: state.references.map((r) => r.imageId),
        });
      },

      async runAction(action, jobId, imageId) {
        const support = get().supportOf(action, jobId, imageId);
        if (!support.enabled) {
          get().toast({ kind: 'error', message: support.reason ?? 'That cannot be done here.' });
          return false;
        }
        switch (action) {
          case 'useAsInput':
            get().useAsInput(jobId, imageId);
            return true;
          case 'addReference':
            return get().addReference(jobId, imageId);
          case 'edit':
            get().openEditor(jobId, imageId);
            return true;
          case 'variations':
            return get().makeVariations(jobId, imageId);
          case 'upscale2':
            return get().upscale(jobId, imageId, 2);
          case 'upscale4':
            return get().upscale(jobId, imageId, 4);
        }
      },

      async makeVariations(jobId, imageId) {
        const detail = await get().getDetail(jobId);
        if (detail === null) return false;
        const state = get();
        const provider = variationProvider(state.providers, detail.request.provider, state.draft.provider);
        if (provider === undefined) {
          state.toast({ kind: 'error', message: 'Turn on a provider in Settings to make variations.' });
          return false;
        }
        // The model the variations run on (variationRequest): the source's, unless another provider does not list it.
        const sourceModel = detail.request.model ?? '';
        const own = providerFor(state.providers, detail.request.provider) === provider;
        const model = own || provider.models.includes(sourceModel) ? sourceModel : '';
        const count = variationCount(state.draft.count, capabilitiesFor(provider, model));
        return queue(
          variationRequest(detail.request, imageId, provider, count),
          `${count} variation${count === 1 ? '' : 's'} queued on ${provider.name}.`,
        );
      },

      async upscale(jobId, imageId, factor) {
        const state = get();
        const job = state.jobs.byId[jobId];
        const image = findImage(job, imageId);
        if (job === undefined || image === undefined) return false;
        return queue(upscaleRequest(job, image, factor, state.draft.provider), `Upscale ×${factor} queued.`);
      },

      async repaint(jobId, imageId, mask, strength = DEFAULT_STRENGTH, typed) {
        const state = get();
        const job = state.jobs.byId[jobId];
        const image = findImage(job, imageId);
        if (job === undefined || image === undefined) return false;
        let maskId: string;
        try {
          const png = toBase64(await encodeMaskPng(mask));
          maskId = (await api.call('images.saveMask', { imageId, png })).maskId;
        } catch (error) {
          get().reportError(error);
          return false;
        }
        const chosen = providerFor(get().providers, get().draft.provider);
        const caps = chosen === undefined ? undefined : capabilitiesFor(chosen, get().draft.model);
        const draft = get().draft;
        // The editor's prompt (else the composer's) through the style's template, as one prompt; empty: the source's.
        const text = typed ?? draft.prompt;
        const plan = planBatch({ prompt: text, template: draft.template, promptLiteral: true });
        const prompt = text.trim() === '' || !plan.ok || plan.prompts.length === 0 ? '' : plan.prompts[0]!;
        const base = { ...buildRequest(draft, caps), prompt };
        const [width, height] = fitSize(image.width, image.height, caps);
        const request = inpaintRequest({ ...base, width, height }, { imageId, prompt: job.prompt }, maskId, strength);
        const queued = await queue(request, 'Repaint queued.');
        if (queued) set({ editing: null });
        return queued;
      },
    };
  };
