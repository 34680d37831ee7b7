import { useId } from 'react';
import { ACTION_KEYS, ACTION_LABELS, ITERATE_ACTIONS, type IterateAction, type Support } from './iterate';
import { useApp, useAppStore } from '../store/context';
import './iterate.css';

/** After an action: Use as input brings the person to the composer; the rest stay where they are. */
export function focusComposerPrompt(): void {
  requestAnimationFrame(() => document.querySelector<HTMLElement>('textarea.prompt')?.focus());
}

/** Each action's support for one image, recomputed when the providers or the composer's provider change. */
export function useActionSupport(jobId: string, imageId: string | undefined): Record<IterateAction, Support> {
  const store = useAppStore();
  // Subscribed so a provider turned on, or another one chosen in the composer, re-enables the buttons.
  useApp((s) => s.providers);
  useApp((s) => s.draft.provider);
  useApp((s) => s.jobs.byId[jobId]);
  // Add as reference turns off once the image is among the references, and on again when it is removed.
  useApp((s) => s.references);
  const supportOf = store.getState().supportOf;
  return Object.fromEntries(ITERATE_ACTIONS.map((a) => [a, supportOf(a, jobId, imageId)])) as Record<
    IterateAction,
    Support
  >;
}

/** Disabled actions grouped by their reason: "Edit, Upscale ×2: Built-in works from text only." */
export function reasonLines(support: Record<IterateAction, Support>): string[] {
  const byReason = new Map<string, string[]>();
  for (const action of ITERATE_ACTIONS) {
    const s = support[action];
    if (s.enabled || s.reason === undefined) continue;
    byReason.set(s.reason, [...(byReason.get(s.reason) ?? []), ACTION_LABELS[action].replace('…', '')]);
  }
  return [...byReason].map(([reason, actions]) => `${actions.join(', ')}: ${reason}`);
}

/**
 * Use as input, Edit, Variations, Upscale ×2/×4 and Add as reference for one image, as buttons (viewer) with the keys in their titles;
 * one the chosen provider cannot do stays focusable but disabled, its reason shown beside the buttons.
 */
export function ImageActions({
  jobId,
  imageId,
  onUseAsInput,
}: {
  jobId: string;
  imageId: string | undefined;
  onUseAsInput?: () => void;
}) {
  const store = useAppStore();
  const busy = useApp((s) => s.iterating);
  const support = useActionSupport(jobId, imageId);
  const reasonsId = useId();
  const reasons = reasonLines(support);
  const run = (action: IterateAction) => {
    if (imageId === undefined) return;
    void store
      .getState()
      .runAction(action, jobId, imageId)
      .then((done) => {
        if (done && action === 'useAsInput') onUseAsInput?.();
      });
  };
  return (
    <section className="image-actions" aria-label="Work from this image">
      <h3>Work from this image</h3>
      <div
        className="image-actions-buttons"
        role="group"
        aria-label="Work from this image"
        aria-describedby={reasons.length > 0 ? reasonsId : undefined}
      >
        {ITERATE_ACTIONS.map((action) => {
          const s = support[action];
          return (
            <button
              key={action}
              type="button"
              className="btn small"
              data-action={action}
              // aria-disabled, not disabled: the button keeps the focus and its tooltip says why.
              aria-disabled={!s.enabled || busy}
              aria-keyshortcuts={ACTION_KEYS[action]}
              title={
                s.enabled
                  ? `${ACTION_LABELS[action]} (${ACTION_KEYS[action]})${s.note === undefined ? '' : `: ${s.note}`}`
                  : `${ACTION_LABELS[action]}: ${s.reason ?? 'not available'}`
              }
              onClick={() => {
                if (s.enabled && !busy) run(action);
              }}
            >
              {ACTION_LABELS[action]}
              <kbd aria-hidden="true">{ACTION_KEYS[action]}</kbd>
            </button>
          );
        })}
      </div>
      {reasons.length > 0 ? (
        <ul className="image-actions-reasons" id={reasonsId}>
          {reasons.map((line) => (
            <li key={line}>{line}</li>
          ))}
        </ul>
      ) : null}
    </section>
  );
}
