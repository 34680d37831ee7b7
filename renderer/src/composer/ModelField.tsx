import { useState } from 'react';
import type { ProviderInfo } from '../../../shared/contract';
import { Field } from '../common/Field';
import { useApp } from '../store/context';
import { capabilitiesFor } from './capabilities-for';
import { adaptDraftToModel } from './composer';
import { capabilitySummary, modelOptions, modelsDiffer, takesTypedModel } from './model-options';

/** The menu's entry that opens the id field; no model id starts with a control character. */
const TYPE_AN_ID = '\u0001type-an-id';

/**
 * The model menu, each model with what it can do; where the provider runs any id (fal, Replicate), a field to type one.
 * `missing`: the chosen server(s) lack the model (models/lora-picker.ts missingOnServers), said under it before sending.
 */
export function ModelField({ provider, missing }: { provider: ProviderInfo; missing?: string | undefined }) {
  const draft = useApp((s) => s.draft);
  const error = useApp((s) => s.fieldErrors.model) ?? missing;
  const update = useApp((s) => s.updateDraft);
  const [typing, setTyping] = useState(false);
  const typedAllowed = takesTypedModel(provider.kind);
  const listed = draft.model === '' || provider.models.includes(draft.model);
  const showIdField = typedAllowed && (typing || !listed);
  const options = modelOptions(provider, showIdField && !listed ? '' : draft.model);
  const choose = (model: string) => update(adaptDraftToModel(draft, provider, model));
  // Said under the menu only where models differ: a server's checkpoints all take the same settings.
  const summary = modelsDiffer(provider) ? capabilitySummary(capabilitiesFor(provider, draft.model)) : undefined;
  const idHint = listed
    ? `Any ${provider.name} model id.`
    : `Any ${provider.name} model id; what it takes is checked when you generate.`;

  return (
    <div className="field model-field">
      <Field label="Model" {...(showIdField ? {} : { error, ...(summary === undefined ? {} : { hint: summary }) })}>
        {(props) => (
          <select
            {...props}
            value={showIdField ? TYPE_AN_ID : draft.model}
            onChange={(e) => {
              if (e.target.value === TYPE_AN_ID) {
                setTyping(true);
                return;
              }
              setTyping(false);
              choose(e.target.value);
            }}
          >
            {options.map((o) => (
              <option key={o.value} value={o.value}>
                {o.label}
              </option>
            ))}
            {typedAllowed ? <option value={TYPE_AN_ID}>Another model id…</option> : null}
          </select>
        )}
      </Field>
      {showIdField ? (
        <Field label="Model id" error={error} hint={idHint}>
          {(props) => (
            <input
              {...props}
              type="text"
              autoComplete="off"
              spellCheck={false}
              placeholder={provider.kind === 'replicate' ? 'owner/model' : 'fal-ai/…'}
              value={draft.model}
              onChange={(e) => choose(e.target.value.trim())}
            />
          )}
        </Field>
      ) : null}
    </div>
  );
}
