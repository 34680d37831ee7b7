import { memo } from 'react';
import type { LibraryModel } from '../../../shared/contract';
import { useLatch } from '../common/use-latch';
import { useNow } from '../common/use-now';
import { useApi, useApp, useAppStore } from '../store/context';
import { withTriggerWords, addLora } from './lora-picker';
import { imagesQuery, KIND_LABEL, serversLine, usageLine } from './model-view';
import { NoteField } from './NoteField';

/** Trigger words shown on a card; the rest are counted. */
const CARD_TRIGGERS = 6;

/**
 * One model or LoRA: the person's own best picture made with it first, then its name, use, servers, words and note.
 * Placed by the grid (top, left, width, height); memoised, so a scroll renders only the cards it brings in.
 */
export const ModelCard = memo(function ModelCard({
  model,
  pictureHeight,
  top,
  left,
  width,
  height,
  lite = false,
}: {
  model: LibraryModel;
  /** Mounted during a fling (gallery/fling.ts): no picture asked for until the scroll slows; then it stays. */
  lite?: boolean;
  pictureHeight: number;
  top?: number;
  left?: number;
  width?: number;
  height?: number;
}) {
  const api = useApi();
  const store = useAppStore();
  const pictureAllowed = useLatch(!lite);
  const providerNames = useApp((s) => s.providers);
  const now = useNow();
  const nameOf = (id: string) => providerNames.find((p) => p.id === id)?.name ?? id;
  const query = imagesQuery(model);
  const kind = KIND_LABEL[model.kind];
  const insertWord = (word: string) => {
    const s = store.getState();
    s.updateDraft({ prompt: withTriggerWords(s.draft.prompt, [word]) });
    s.toast({ kind: 'info', message: `“${word}” added to the prompt.`, replaces: 'trigger-word' });
  };
  const useLora = () => {
    const s = store.getState();
    const name =
      model.servers.find((srv) => srv.provider === s.draft.provider)?.name ?? model.servers[0]?.name ?? model.name;
    s.updateDraft({ loras: addLora(s.draft.loras, name) });
    s.toast({ kind: 'info', message: `${model.name} added to the composer’s LoRAs.`, replaces: 'use-lora' });
  };
  const extra = model.triggerWords.length - CARD_TRIGGERS;
  return (
    <article
      className="model-card"
      style={top === undefined ? undefined : { position: 'absolute', top, left, width, height }}
      aria-label={`${kind} ${model.name}`}
    >
      <div className="model-picture" style={{ height: pictureHeight }}>
        {model.preview === undefined ? (
          <div className="model-placeholder" aria-hidden="true">
            {kind}
          </div>
        ) : !pictureAllowed ? null : (
          <img
            src={api.mediaUrl('thumb', model.preview.imageId)}
            alt={`Your ${model.preview.rating === undefined ? 'newest' : 'best-rated'} image made with ${model.name}`}
            decoding="async"
            draggable={false}
          />
        )}
        <span className="model-marks">
          {/* Without a picture the placeholder already names the kind. */}
          {model.preview === undefined ? null : <span className={`model-mark kind-${model.kind}`}>{kind}</span>}
          {model.baseModel === undefined ? null : <span className="model-mark">{model.baseModel}</span>}
        </span>
      </div>
      <div className="model-body">
        <h3 className="model-name" title={model.name}>
          {model.name}
        </h3>
        <p className="model-usage">{usageLine(model, now)}</p>
        <p className={model.servers.length === 0 ? 'model-servers missing' : 'model-servers'}>
          {serversLine(model, nameOf)}
        </p>
        {model.triggerWords.length === 0 ? (
          // The row stays, so every card's note and buttons sit at the same height.
          <div className="model-triggers" aria-hidden="true" />
        ) : (
          <ul className="model-triggers" aria-label="Trigger words">
            {model.triggerWords.slice(0, CARD_TRIGGERS).map((word) => (
              <li key={word}>
                <button
                  type="button"
                  className="chip"
                  title={`Add “${word}” to the prompt`}
                  onClick={() => insertWord(word)}
                >
                  {word}
                </button>
              </li>
            ))}
            {extra > 0 ? (
              <li className="model-more" title={model.triggerWords.slice(CARD_TRIGGERS).join(', ')}>
                +{extra}
              </li>
            ) : null}
          </ul>
        )}
        <NoteField modelKey={model.key} note={model.note} name={model.name} />
        <div className="model-actions">
          {query === null ? null : (
            <button
              type="button"
              className="btn small"
              disabled={model.imageCount === 0}
              title={model.imageCount === 0 ? 'No images made with it yet' : `Search the gallery for ${query}`}
              onClick={() => store.getState().showModelImages(model)}
            >
              Show images
            </button>
          )}
          {model.kind === 'lora' ? (
            <button type="button" className="btn small ghost" onClick={useLora}>
              Use in composer
            </button>
          ) : null}
        </div>
      </div>
    </article>
  );
});
