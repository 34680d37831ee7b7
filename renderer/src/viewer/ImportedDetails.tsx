import { useState } from 'react';
import type { ImportedMetadata, ImageSource } from '../../../shared/contract';
import { SOURCE_LABELS } from '../library/import/sources';
import { useApp } from '../store/context';
import { allRawTexts, rawOrigin } from './raw-origin';
import { passLabel, passSummary } from './passes';
import { ModelLink } from '../models/ModelLink';

/** Past this many characters a raw text is cut on screen (it is kept whole, and "Show all" shows it). */
export const RAW_PREVIEW_CHARS = 600;

/** Copies a text and says so; a refusal (no clipboard in this window) is reported like any error. */
function useCopy(): (text: string, what: string) => void {
  const toast = useApp((s) => s.toast);
  const reportError = useApp((s) => s.reportError);
  return (text, what) =>
    void navigator.clipboard
      ?.writeText(text)
      .then(() => toast({ kind: 'info', message: `${what} copied.` }), reportError);
}

function RawText({ name, text }: { name: string; text: string }) {
  const [all, setAll] = useState(false);
  const copy = useCopy();
  const long = text.length > RAW_PREVIEW_CHARS;
  const origin = rawOrigin(name);
  return (
    <li className="raw-text">
      <div className="raw-key">
        <span className="raw-origin">{origin}</span>
        <span className="muted small">{text.length.toLocaleString('en-US')} characters</span>
        <button type="button" className="link small" aria-label={`Copy ${origin}`} onClick={() => copy(text, origin)}>
          Copy
        </button>
        {long ? (
          <button type="button" className="link small" aria-expanded={all} onClick={() => setAll(!all)}>
            {all ? 'Show less' : 'Show all'}
          </button>
        ) : null}
      </div>
      <pre className="raw-value" aria-label={`Text: ${origin}`}>
        {long && !all ? `${text.slice(0, RAW_PREVIEW_CHARS)}…` : text}
      </pre>
    </li>
  );
}

/** What an imported file said beyond the shared fields: where it lives, extra settings, and every raw text. */
export function ImportedDetails({ source, metadata }: { source: ImageSource; metadata: ImportedMetadata }) {
  return (
    <>
      <dl className="details-list imported">
        <dt>Source</dt>
        <dd>{SOURCE_LABELS[source]}</dd>
        <dt>{metadata.locations.length === 1 ? 'Location' : 'Locations'}</dt>
        <dd>
          <ul className="locations">
            {metadata.locations.map((l) => (
              <li key={l.path} className={l.missing ? 'missing' : ''}>
                <span className="mono">{l.path}</span>
                {l.missing ? <span className="badge warn">missing</span> : null}
              </li>
            ))}
          </ul>
        </dd>
        <dt>Kept</dt>
        <dd>{metadata.mode === 'link' ? 'Where it is (linked)' : 'Copied into the library'}</dd>
        {/* The model as the file names it (Settings above shows it corrected): its images and its library card. */}
        {metadata.model === undefined || metadata.model === '' ? null : (
          <>
            <dt>Made with</dt>
            <dd>
              <ModelLink kind="checkpoint" name={metadata.model} />
            </dd>
          </>
        )}
        {metadata.scheduler === undefined ? null : (
          <>
            <dt>Scheduler</dt>
            <dd>{metadata.scheduler}</dd>
          </>
        )}
        {metadata.modelHash === undefined ? null : (
          <>
            <dt>Model hash</dt>
            <dd className="mono">{metadata.modelHash}</dd>
          </>
        )}
        {metadata.denoise === undefined ? null : (
          <>
            <dt>Denoise</dt>
            <dd>{metadata.denoise}</dd>
          </>
        )}
        {metadata.loras === undefined || metadata.loras.length === 0 ? null : (
          <>
            <dt>LoRAs</dt>
            <dd>
              <ul className="loras">
                {metadata.loras.map((l, i) => (
                  <li key={`${l.name}-${i}`}>
                    <ModelLink kind="lora" name={l.name} weight={l.weight} />
                  </li>
                ))}
              </ul>
            </dd>
          </>
        )}
        {metadata.distilledGuidance === undefined ? null : (
          <>
            <dt>Flux guidance</dt>
            <dd>{metadata.distilledGuidance}</dd>
          </>
        )}
        {metadata.passes === undefined || metadata.passes.length === 0 ? null : (
          <>
            <dt>Later passes</dt>
            <dd>
              <ol className="passes" aria-label="Later passes">
                {metadata.passes.map((pass, i) => {
                  const summary = passSummary(pass);
                  return (
                    <li key={`${pass.classType}-${i}`} title={pass.classType}>
                      {passLabel(pass)}
                      {summary === '' ? null : <span className="muted"> · {summary}</span>}
                    </li>
                  );
                })}
              </ol>
            </dd>
          </>
        )}
        {metadata.alternatives === undefined || metadata.alternatives.length === 0 ? null : (
          <>
            <dt>Also in file</dt>
            <dd>
              {metadata.alternatives.length === 1
                ? '1 more generation'
                : `${metadata.alternatives.length} more generations`}
            </dd>
          </>
        )}
      </dl>
      {metadata.problems.length === 0 ? null : (
        <p className="muted small" role="note">
          Not read: {metadata.problems.join('; ')}
        </p>
      )}
      {metadata.raw.length === 0 ? null : <TechnicalTexts raw={metadata.raw} />}
    </>
  );
}

/** Details → Technical: every text the file carries, with where it sits in the file, each copyable. */
function TechnicalTexts({ raw }: { raw: ImportedMetadata['raw'] }) {
  const copy = useCopy();
  return (
    <details className="raw-metadata">
      <summary>Technical: {raw.length === 1 ? '1 text' : `${raw.length} texts`} in the file</summary>
      <button type="button" className="link small" onClick={() => copy(allRawTexts(raw), 'Every text')}>
        Copy all
      </button>
      <ul>
        {raw.map((r, i) => (
          <RawText key={`${r.key}-${i}`} name={r.key} text={r.text} />
        ))}
      </ul>
    </details>
  );
}
