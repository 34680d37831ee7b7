import { useCallback, useEffect, useRef, useState } from 'react';
import type { ChannelOutput } from '../../../shared/contract';
import { formatRelativeTime } from '../common/format';
import { useNow } from '../common/use-now';
import { useApp } from '../store/context';
import './composer-tools.css';
import { useOutsideClose } from '../common/use-outside-close';

type Item = ChannelOutput<'prompts.history'>['items'][number];

/** The prompts used before, newest first, searchable; a click puts one in the prompt box. */
export function PromptHistory() {
  const search = useApp((s) => s.searchPromptHistory);
  const update = useApp((s) => s.updateDraft);
  const [open, setOpen] = useState(false);
  const [text, setText] = useState('');
  const [items, setItems] = useState<Item[] | null>(null);
  const [error, setError] = useState<string | null>(null);
  const root = useRef<HTMLDivElement>(null);
  const closeMenu = useCallback(() => setOpen(false), []);

  useEffect(() => {
    if (!open) return;
    let live = true;
    // A pause in typing, then one query: the newest answer wins.
    const timer = setTimeout(() => {
      search(text).then(
        (found) => live && (setItems(found), setError(null)),
        (e: unknown) => live && setError(e instanceof Error ? e.message : String(e)),
      );
    }, 150);
    return () => {
      live = false;
      clearTimeout(timer);
    };
  }, [open, text, search]);

  useOutsideClose(open, root, closeMenu);

  const now = useNow();
  return (
    <div
      className="prompt-history"
      ref={root}
      onKeyDown={(e) => {
        if (e.key === 'Escape' && open) {
          e.stopPropagation();
          setOpen(false);
        }
      }}
    >
      <button
        type="button"
        className="btn small"
        aria-expanded={open}
        aria-haspopup="true"
        onClick={() => setOpen(!open)}
        title="Prompts used before (↑ in an empty prompt box)"
      >
        History <span aria-hidden="true">▾</span>
      </button>
      {open ? (
        <div className="popover" role="group" aria-label="Prompt history">
          <input
            type="search"
            aria-label="Search prompt history"
            placeholder="Search past prompts"
            value={text}
            autoFocus
            onChange={(e) => setText(e.target.value)}
            onKeyDown={(e) => e.key === 'Enter' && !e.ctrlKey && !e.metaKey && e.preventDefault()}
          />
          {error !== null ? <p className="hint">History is not available: {error}</p> : null}
          {items !== null && items.length === 0 && error === null ? (
            <p className="hint">{text.trim() === '' ? 'No prompts yet.' : 'No past prompt matches.'}</p>
          ) : null}
          {items !== null && items.length > 0 ? (
            <ul className="history-list">
              {items.map((item) => (
                <li key={item.prompt}>
                  <button
                    type="button"
                    title={item.prompt}
                    onClick={() => {
                      update({ prompt: item.prompt, promptLiteral: true });
                      setOpen(false);
                    }}
                  >
                    <span className="history-prompt">{item.prompt}</span>
                    <span className="history-meta">
                      {formatRelativeTime(item.usedAt, now)}
                      {item.uses > 1 ? ` · ${item.uses}×` : ''}
                    </span>
                  </button>
                </li>
              ))}
            </ul>
          ) : null}
        </div>
      ) : null}
    </div>
  );
}
