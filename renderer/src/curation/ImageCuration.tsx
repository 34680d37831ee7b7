import { useEffect, useId, useState } from 'react';
import type { ImageSummary } from '../../../shared/contract';
import { useApp, useAppStore } from '../store/context';
import { BoardPicker } from './BoardPicker';

/** One image's own curation in the details panel: its rating, and its tags to add or remove (suggested from the library). */
export function ImageCuration({ jobId, image }: { jobId: string; image: ImageSummary }) {
  const store = useAppStore();
  const tags = useApp((s) => s.tags);
  const listId = useId();
  const [draft, setDraft] = useState('');
  useEffect(() => {
    if (store.getState().tags === null) void store.getState().loadTags();
  }, [store]);
  const target = { images: { imageIds: [image.id], jobIds: [jobId] } };
  const rating = image.rating ?? 0;
  const own = image.tags ?? [];

  const addTag = () => {
    const names = draft
      .split(',')
      .map((t) => t.trim())
      .filter((t) => t !== '' && !own.some((o) => o.toLocaleLowerCase() === t.toLocaleLowerCase()));
    setDraft('');
    if (names.length > 0) void store.getState().tagImages(target, { add: names });
  };

  return (
    <section className="image-curation" aria-label="This image">
      <div className="rating-row" role="radiogroup" aria-label="Rating">
        {[1, 2, 3, 4, 5].map((n) => (
          <button
            key={n}
            type="button"
            role="radio"
            aria-checked={rating === n}
            aria-label={`${n} star${n === 1 ? '' : 's'}`}
            title={rating === n ? 'Click again to clear (0)' : `Rate ${n} (key ${n})`}
            className={n <= rating ? 'rate-star on' : 'rate-star'}
            onClick={() => void store.getState().rate(target, rating === n ? 0 : n)}
          >
            ★
          </button>
        ))}
        <span className="muted small">{rating === 0 ? 'Not rated' : `${rating} of 5`}</span>
      </div>
      <div className="tag-editor">
        <ul className="tag-chips" aria-label="Tags">
          {own.map((tag) => (
            <li key={tag} className="tag-chip">
              {tag}
              <button
                type="button"
                className="icon"
                aria-label={`Remove tag ${tag}`}
                onClick={() => void store.getState().tagImages(target, { remove: [tag] })}
              >
                ×
              </button>
            </li>
          ))}
        </ul>
        <input
          type="text"
          className="tag-input"
          aria-label="Add a tag"
          placeholder={own.length === 0 ? 'Add a tag…' : 'Another tag…'}
          list={listId}
          value={draft}
          maxLength={64}
          onChange={(e) => setDraft(e.target.value)}
          onKeyDown={(e) => {
            if (e.key === 'Enter') {
              e.preventDefault();
              addTag();
            }
          }}
        />
        <datalist id={listId}>
          {(tags ?? [])
            .filter((t) => !own.includes(t.name))
            .map((t) => (
              <option key={t.name} value={t.name}>{`${t.name} (${t.count})`}</option>
            ))}
        </datalist>
      </div>
      <BoardPicker className="board-pick" label="Add this image to a board" target={() => target} />
    </section>
  );
}
