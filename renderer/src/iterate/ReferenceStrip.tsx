import { useMemo, useRef } from 'react';
import { capabilitiesFor } from '../composer/capabilities-for';
import { resolveTarget } from '../composer/composer-targets';
import { useApi, useApp, useAppShallow } from '../store/context';
import { ACTION_KEYS } from './iterate';
import { planReferences, referenceCount } from './references';
import './references.css';

/**
 * The composer's references: small thumbnails in the order the model sees them, each removable (× or Delete on a
 * focused one). Shown when the chosen model takes references, or when some are chosen and this one takes none.
 */
export function ReferenceStrip() {
  const api = useApi();
  const references = useApp((s) => s.references);
  const providers = useApp((s) => s.providers);
  const providerId = useApp((s) => s.draft.provider);
  const model = useApp((s) => s.draft.model);
  const hasInput = useApp((s) => s.workingFrom !== null);
  // Each reference's prompt names its thumbnail; selected alone, so a job elsewhere changing does not redraw the row.
  const prompts = useAppShallow((s) => s.references.map((r) => s.jobs.byId[r.jobId]?.prompt ?? ''));
  const remove = useApp((s) => s.removeReference);
  const clear = useApp((s) => s.clearReferences);
  const refused = useApp((s) => s.fieldErrors.referenceImages);
  const listRef = useRef<HTMLUListElement>(null);
  const plan = useMemo(() => {
    const target = resolveTarget(providerId, providers);
    const caps = target === undefined ? undefined : capabilitiesFor(target, model);
    return planReferences(references, caps, { kind: target?.kind, hasInput });
  }, [references, providers, providerId, model, hasInput]);
  // The model takes none and none are chosen: nothing to show (the gallery shows pictures, not controls).
  if (references.length === 0 && plan.takes === 0) return null;

  const removeAt = (index: number, imageId: string) => {
    remove(imageId);
    // The focus moves to the thumbnail that took its place, else the one before, else the prompt.
    requestAnimationFrame(() => {
      const items = listRef.current?.querySelectorAll<HTMLElement>('.reference-thumb');
      const next = items?.[Math.min(index, (items?.length ?? 0) - 1)];
      (next ?? document.querySelector<HTMLElement>('textarea.prompt'))?.focus();
    });
  };

  return (
    <div
      className={plan.note === null ? 'reference-strip' : 'reference-strip limited'}
      role="group"
      aria-label="References"
    >
      <div className="reference-strip-head">
        <span className="reference-strip-title">References</span>
        <span className="muted small" data-testid="reference-count">
          {referenceCount(plan, references.length)}
        </span>
        {references.length > 1 ? (
          <button type="button" className="link small reference-strip-clear" onClick={clear}>
            Clear
          </button>
        ) : null}
      </div>
      {references.length === 0 ? (
        <span className="muted small">
          Add an image the model should look at: “Add as reference” in its ⋯ menu or the viewer (
          {ACTION_KEYS.addReference}).
        </span>
      ) : (
        <ul className="reference-thumbs" ref={listRef} aria-label="Reference images, in the order sent">
          {references.map((ref, index) => {
            const held = index >= plan.sent.length;
            const prompt = prompts[index] ?? '';
            const label = `Reference ${index + 1}${held ? ', not sent' : ''}${prompt === '' ? '' : `: ${prompt}`}`;
            return (
              <li key={ref.imageId} className={held ? 'held' : undefined}>
                <span
                  className="reference-thumb"
                  // A focus stop of its own: Delete or Backspace removes the focused reference.
                  tabIndex={0}
                  role="img"
                  aria-label={label}
                  title={`${label}\nDelete removes it`}
                  onKeyDown={(e) => {
                    if (e.key !== 'Delete' && e.key !== 'Backspace') return;
                    e.preventDefault();
                    e.stopPropagation();
                    removeAt(index, ref.imageId);
                  }}
                >
                  <img src={api.mediaUrl('thumb', ref.imageId)} alt="" width={40} height={40} />
                </span>
                <button
                  type="button"
                  className="reference-remove"
                  // The thumbnail's Delete is the keyboard's way: one focus stop per reference.
                  tabIndex={-1}
                  aria-label={`Remove reference ${index + 1}`}
                  title="Remove"
                  onClick={() => removeAt(index, ref.imageId)}
                >
                  ×
                </button>
              </li>
            );
          })}
        </ul>
      )}
      {plan.note === null ? null : (
        <span className="reference-strip-note small" role="note">
          {plan.note}
        </span>
      )}
      {refused === undefined ? null : (
        <span className="reference-strip-note small" role="alert">
          {refused}
        </span>
      )}
    </div>
  );
}
