import { useMemo, useRef } from 'react';
import { BUILTIN_DESCRIPTION } from '../../../shared/providers/groups';
import { MAX_SEED, seedFieldText, seedFromInput } from './composer';
import { batchHint, planBatch, recalledExpansion } from './composer-batch';
import { advancedSummary, hasAdvancedError, useAdvancedOpen } from './composer-advanced';
import { resolveTarget, targetOptions } from './composer-targets';
import { capabilitiesFor } from './capabilities-for';
import { takesTypedModel } from './model-options';
import { ModelField } from './ModelField';
import { keyToCommand } from '../common/keyboard';
import { providerStatusView } from '../settings/provider-status';
import { useApp, useAppShallow } from '../store/context';
import { BatchCount, BatchHint } from './BatchHint';
import { DraftNotes } from './DraftNotes';
import { Field } from '../common/Field';
import { InputImageStrip } from '../iterate/InputImageStrip';
import { ReferenceStrip } from '../iterate/ReferenceStrip';
import { PresetMenu } from './PresetMenu';
import { PromptHistory } from './PromptHistory';
import { SamplerFields } from './SamplerFields';
import { SizeField } from './SizeField';
import { LoraPicker } from '../models/LoraPicker';
import { missingOnServers, targetServers } from '../models/lora-picker';
import { SweepSection } from '../sweeps/SweepSection';
import { useComposerSweep } from '../sweeps/use-composer-sweep';

function randomSeed(): number {
  const values = new Uint32Array(1);
  crypto.getRandomValues(values);
  return values[0]!;
}

function pickerSuffix(note: string): string {
  return note === '' ? '' : ` (${note})`;
}

export function Composer() {
  const draft = useApp((s) => s.draft);
  const errors = useApp((s) => s.fieldErrors);
  const submitting = useApp((s) => s.submitting);
  const providers = useAppShallow((s) => s.providers.filter((p) => p.enabled));
  const providerDown = useApp((s) => s.providerDown);
  const update = useApp((s) => s.updateDraft);
  const chooseProvider = useApp((s) => s.chooseProvider);
  const submit = useApp((s) => s.submit);
  const promptWalk = useApp((s) => s.promptWalk);
  const provider = resolveTarget(draft.provider, providers);
  const options = useMemo(() => targetOptions(providers), [providers]);
  const caps = useMemo(
    () => (provider === undefined ? undefined : capabilitiesFor(provider, draft.model)),
    [provider, draft.model],
  );
  const clearTemplate = useApp((s) => s.clearTemplate);
  const recallPrompt = useApp((s) => s.recallPrompt);
  const plan = useMemo(() => planBatch(draft), [draft]);
  const hint = plan.ok ? batchHint(plan.prompts.length, draft.count) : null;
  const recalledJobs = useMemo(() => recalledExpansion(draft), [draft]);
  const library = useApp((s) => s.modelLibrary);
  const servers = useMemo(() => targetServers(draft.provider, providers), [draft.provider, providers]);
  // What the chosen server(s) lack is named before anything is sent, and Generate waits for it (the engine refuses too).
  const missing = useMemo(
    () => missingOnServers(draft, servers, library?.items ?? null, caps?.loras === true),
    [draft, servers, library, caps],
  );
  const missingModel = missing.find((m) => m.startsWith('Model '));
  const missingLoras = missing.filter((m) => m !== missingModel);

  // When the person pressed, from the input event itself: a busy page may handle two clicks far later than they happened.
  const pressedAt = (e: { timeStamp: number }) => performance.timeOrigin + e.timeStamp;
  const clickedAt = useRef<number | null>(null);
  const sweep = useComposerSweep(draft, caps);
  // With a sweep's axes filled, Generate runs the sweep (its own key guards a double click).
  const blocked = !sweep.active && missing.length > 0;
  const onSubmit = (at: number) => (blocked ? undefined : sweep.active ? sweep.run() : void submit({ at }));
  const [advancedRemembered, setAdvancedOpen] = useAdvancedOpen();
  // An error under Advanced opens it, so the inline message is seen.
  const advancedOpen = advancedRemembered || hasAdvancedError(errors);
  const advancedNote = advancedOpen ? '' : advancedSummary(draft, caps);

  return (
    // noValidate: every field is checked by the app's own rules and shown inline, never as a browser bubble.
    <form
      noValidate
      className="composer"
      aria-label="Composer"
      onSubmit={(e) => {
        e.preventDefault();
        // A click on Generate submits the form: the click's own time is the press (the submit event comes later).
        onSubmit(clickedAt.current ?? pressedAt(e));
        clickedAt.current = null;
      }}
      onKeyDown={(e) => {
        const command = keyToCommand(
          {
            key: e.key,
            ctrlKey: e.ctrlKey,
            metaKey: e.metaKey,
            shiftKey: e.shiftKey,
            altKey: e.altKey,
            inTextField: true,
          },
          'composer',
        );
        if (command === 'submit') {
          e.preventDefault();
          onSubmit(pressedAt(e));
        }
      }}
    >
      <div className="composer-tools">
        <PresetMenu />
        <PromptHistory />
        {draft.templateName !== '' ? (
          <span className="chip active template-chip" title={draft.template}>
            Style: {draft.templateName}
            <button
              type="button"
              className="icon-btn"
              aria-label={`Stop using the style ${draft.templateName}`}
              onClick={clearTemplate}
            >
              ×
            </button>
          </span>
        ) : null}
      </div>
      <InputImageStrip />
      <ReferenceStrip />
      <Field label="Prompt" error={errors.prompt}>
        {(props) => (
          <textarea
            {...props}
            className="prompt"
            rows={5}
            value={draft.prompt}
            placeholder="Describe the image. Ctrl+Enter to generate. {red|blue} makes one of each; each line is a prompt of its own; ↑ brings back past prompts."
            onChange={(e) => update({ prompt: e.target.value })}
            onKeyDown={(e) => {
              if (e.altKey || e.ctrlKey || e.metaKey || e.shiftKey) return;
              const box = e.currentTarget;
              const atStart = box.selectionStart === 0 && box.selectionEnd === 0;
              const atEnd = box.selectionStart === box.value.length && box.selectionEnd === box.value.length;
              // ↑ at the very start (or in an empty box) walks back through past prompts; ↓ at the end walks forward.
              if (e.key === 'ArrowUp' && (atStart || box.value === '')) {
                e.preventDefault();
                void recallPrompt(1);
              } else if (e.key === 'ArrowDown' && atEnd && promptWalk.index >= 0) {
                e.preventDefault();
                void recallPrompt(-1);
              }
            }}
          />
        )}
      </Field>
      <BatchHint
        plan={plan}
        hint={hint}
        promptError={errors.prompt}
        template={draft.template}
        recalledJobs={recalledJobs}
      />

      {/* What an artist sets every time: provider and model, then size and count; the rest waits under Advanced. */}
      <div className="row main-row">
        <Field
          label="Provider"
          error={errors.provider}
          {...(provider?.kind === 'builtin' ? { hint: BUILTIN_DESCRIPTION } : {})}
        >
          {(props) => (
            <select {...props} value={draft.provider} onChange={(e) => chooseProvider(e.target.value)}>
              {providers.length === 0 ? <option value={draft.provider}>Loading…</option> : null}
              {options.map((o) => (
                <option key={o.value} value={o.value}>
                  {o.label}
                  {o.value === o.provider.id
                    ? pickerSuffix(providerStatusView(o.provider, Date.now(), providerDown[o.provider.id]).pickerNote)
                    : ''}
                </option>
              ))}
            </select>
          )}
        </Field>
        {provider !== undefined && (provider.models.length > 0 || takesTypedModel(provider.kind)) ? (
          <ModelField provider={provider} missing={missingModel} />
        ) : null}
      </div>
      {provider !== undefined ? (
        <LoraPicker servers={servers} takesLoras={caps?.loras === true} problems={missingLoras} />
      ) : null}
      <SizeField width={draft.width} height={draft.height} caps={caps} errors={errors} onChange={update}>
        <Field label="Count" error={errors.count}>
          {(props) => (
            <input
              {...props}
              type="number"
              min={1}
              max={caps?.maxCount ?? 10}
              value={draft.count}
              onChange={(e) => update({ count: Number(e.target.value) })}
            />
          )}
        </Field>
      </SizeField>

      <DraftNotes />

      <details className="advanced" open={advancedOpen} onToggle={(e) => setAdvancedOpen(e.currentTarget.open)}>
        <summary>
          Advanced
          {advancedNote === '' ? null : <span className="advanced-note">{advancedNote}</span>}
        </summary>
        <div className="advanced-body">
          {caps?.negativePrompt ? (
            <Field label="Negative prompt" error={errors.negativePrompt}>
              {(props) => (
                <textarea
                  {...props}
                  rows={2}
                  value={draft.negativePrompt}
                  placeholder="What to avoid"
                  onChange={(e) => update({ negativePrompt: e.target.value })}
                />
              )}
            </Field>
          ) : null}

          {caps?.seed ? (
            <Field
              label="Seed"
              error={errors.seed}
              hint={
                draft.seedOnce
                  ? 'The reused image’s seed, for the next generation only; random after it unless you keep it.'
                  : draft.seedLocked
                    ? 'Fixed: the same settings give the same image.'
                    : 'Random each time. Type a number to fix it.'
              }
            >
              {(props) => (
                // A seed past 32 bits (up to 20 digits) takes the whole row, its buttons below, so every digit shows.
                <div className={seedFieldText(draft).length > 10 ? 'seed long' : 'seed'}>
                  <input
                    {...props}
                    type="text"
                    inputMode="numeric"
                    autoComplete="off"
                    placeholder="Random"
                    title={`A whole number from 0 to ${MAX_SEED}`}
                    value={seedFieldText(draft)}
                    onChange={(e) => {
                      const next = seedFromInput(e.target.value);
                      if (next !== null) update(next);
                    }}
                  />
                  {draft.seedOnce ? (
                    <button
                      type="button"
                      className="btn small"
                      aria-label="Keep this seed"
                      title="Keep this seed fixed after the next generation"
                      onClick={() => update({ seedOnce: false })}
                    >
                      Keep
                    </button>
                  ) : null}
                  {draft.seedLocked ? (
                    <button
                      type="button"
                      className="btn small"
                      aria-label="Back to a random seed"
                      title="Back to random"
                      onClick={() => update({ seedLocked: false, seedOnce: false })}
                    >
                      Random
                    </button>
                  ) : null}
                  <button
                    type="button"
                    className="btn small"
                    aria-label="New seed"
                    title="Roll a new seed and keep it"
                    onClick={() => update({ seed: randomSeed(), seedLocked: true, seedOnce: false })}
                  >
                    <span aria-hidden="true" className="dice">
                      ⚄
                    </span>{' '}
                    New
                  </button>
                </div>
              )}
            </Field>
          ) : null}

          <div className="row">
            {caps?.steps !== undefined ? (
              <Field label="Steps" error={errors.steps}>
                {(props) => (
                  <input
                    {...props}
                    type="number"
                    min={caps.steps!.min}
                    max={caps.steps!.max}
                    value={draft.steps ?? caps.steps!.default}
                    onChange={(e) => update({ steps: Number(e.target.value) })}
                  />
                )}
              </Field>
            ) : null}
            {caps?.guidance !== undefined ? (
              <Field label="Guidance" error={errors.guidance}>
                {(props) => (
                  <input
                    {...props}
                    type="number"
                    step={0.5}
                    min={caps.guidance!.min}
                    max={caps.guidance!.max}
                    value={draft.guidance ?? caps.guidance!.default}
                    onChange={(e) => update({ guidance: Number(e.target.value) })}
                  />
                )}
              </Field>
            ) : null}
            {caps?.qualities !== undefined ? (
              <Field label="Quality" error={errors.quality}>
                {(props) => (
                  <select
                    {...props}
                    value={draft.quality ?? ''}
                    onChange={(e) => update({ quality: e.target.value as typeof draft.quality })}
                  >
                    {caps.qualities!.map((q) => (
                      <option key={q} value={q}>
                        {q}
                      </option>
                    ))}
                  </select>
                )}
              </Field>
            ) : null}
          </div>

          {caps?.samplers !== undefined ? <SamplerFields samplers={caps.samplers} kind={provider?.kind} /> : null}

          {caps !== undefined && caps.maxPartialImages > 0 ? (
            <label className="check">
              <input
                type="checkbox"
                checked={draft.previews}
                onChange={(e) => update({ previews: e.target.checked })}
              />
              Show partial previews while it renders
            </label>
          ) : null}
        </div>
      </details>

      <SweepSection view={sweep.view} loras={draft.loras.map((l) => l.name)} />

      {/* Pinned to the panel's bottom edge (composer-size.css): Generate stays in view however long the form grows. */}
      <div className="composer-footer">
        {sweep.active ? (
          <span className={sweep.view.ok ? 'muted sweep-footnote' : 'field-error sweep-footnote'} id="sweep-reason">
            {sweep.view.ok ? `${sweep.view.images} images` : sweep.view.reason}
          </span>
        ) : blocked ? (
          <span className="field-error missing-reason" id="missing-reason">
            {missing.length === 1 ? missing[0] : `${missing[0]} (and ${missing.length - 1} more)`}
          </span>
        ) : (
          <BatchCount plan={plan} hint={hint} />
        )}
        <button
          type="submit"
          className="btn primary generate"
          aria-busy={submitting || (sweep.active && sweep.starting)}
          disabled={(sweep.active && !sweep.view.ok) || blocked}
          aria-describedby={sweep.active ? 'sweep-reason' : blocked ? 'missing-reason' : undefined}
          onClick={(e) => (clickedAt.current = pressedAt(e))}
        >
          {sweep.active
            ? sweep.starting
              ? 'Starting…'
              : sweep.view.label
            : submitting
              ? 'Queuing…'
              : hint !== null
                ? `Generate ${plan.ok ? plan.prompts.length : ''} jobs`
                : 'Generate'}
          <kbd aria-hidden="true">Ctrl ↵</kbd>
        </button>
      </div>
    </form>
  );
}
