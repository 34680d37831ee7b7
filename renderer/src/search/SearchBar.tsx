import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import type { SuggestResult } from '../../../shared/contract';
import { createLatestRunner } from './latest-runner';
import { applySuggestion, moveHighlight } from './suggestions';
import { useApi, useApp, useAppStore } from '../store/context';
import { SearchError } from './SearchError';
import { SearchHelp } from './SearchHelp';
import { focusGrid } from '../gallery/grid-focus';

/** A pause this long ends a burst of typing: the thumbnails of the results on screen load then. */
const TYPING_PAUSE_MS = 150;
/** Suggestions wait for this pause, so the results of each keystroke go out first. */
const SUGGEST_PAUSE_MS = 120;

export function SearchBar() {
  const store = useAppStore();
  const api = useApi();
  const inputRef = useRef<HTMLInputElement>(null);
  const rootRef = useRef<HTMLDivElement>(null);
  const [suggest, setSuggest] = useState<SuggestResult | null>(null);
  const [highlight, setHighlight] = useState(-1);
  const [helpOpen, setHelpOpen] = useState(false);
  const suggestTimer = useRef<number | null>(null);
  const suggestAsked = useRef(0);
  const committed = useApp((s) => s.filters.search);
  const [text, setText] = useState(committed);
  // What this box typed and the store has not shown yet: only a change from elsewhere ("Clear filters") rewrites the text.
  const typed = useRef<string[]>([]);
  // No debounce: each keystroke searches at once when nothing is in flight; while one is, only the newest waits.
  const runner = useMemo(() => createLatestRunner((value: string) => store.getState().setSearch(value)), [store]);
  const typingTimer = useRef<number | null>(null);
  useEffect(
    () => () => {
      if (typingTimer.current !== null) window.clearTimeout(typingTimer.current);
      if (suggestTimer.current !== null) window.clearTimeout(suggestTimer.current);
    },
    [],
  );

  const askSuggestions = (value: string, cursor: number) => {
    if (suggestTimer.current !== null) window.clearTimeout(suggestTimer.current);
    suggestTimer.current = window.setTimeout(() => {
      suggestTimer.current = null;
      const asked = ++suggestAsked.current;
      api.call('search.suggest', { text: value, cursor: Math.min(cursor, 1_000) }).then(
        (result) => {
          if (asked !== suggestAsked.current) return;
          setSuggest(result.items.length === 0 ? null : result);
          setHighlight(-1);
        },
        // Suggestions are a help: without them the box still searches.
        () => setSuggest(null),
      );
    }, SUGGEST_PAUSE_MS);
  };
  const closeSuggestions = () => {
    suggestAsked.current += 1;
    if (suggestTimer.current !== null) window.clearTimeout(suggestTimer.current);
    setSuggest(null);
    setHighlight(-1);
  };
  const choose = (index: number) => {
    const item = suggest?.items[index];
    if (suggest === null || item === undefined) return;
    const next = applySuggestion(text, { from: suggest.from, to: suggest.to, insert: item.insert, kind: item.kind });
    onChange(next.text);
    requestAnimationFrame(() => inputRef.current?.setSelectionRange(next.cursor, next.cursor));
    // A key wants its value next: ask what the library holds for it.
    if (item.kind === 'key') askSuggestions(next.text, next.cursor);
    else closeSuggestions();
  };

  useEffect(() => {
    const ours = typed.current.lastIndexOf(committed);
    if (ours >= 0) {
      // Ours, and everything typed before it (skipped while a search was in flight) is behind us too.
      typed.current.splice(0, ours + 1);
      return;
    }
    typed.current = [];
    setText(committed);
  }, [committed]);

  const onChange = (value: string) => {
    setText(value);
    typed.current.push(value);
    // While keys keep coming, result cards wait with their thumbnails: each keystroke's would queue behind the last
    // one's on the browser's few connections, and delay the next results.
    if (!store.getState().searchTyping) store.setState({ searchTyping: true });
    if (typingTimer.current !== null) window.clearTimeout(typingTimer.current);
    typingTimer.current = window.setTimeout(() => {
      typingTimer.current = null;
      store.setState({ searchTyping: false });
    }, TYPING_PAUSE_MS);
    runner.push(value);
  };

  const closeHelp = useCallback(() => setHelpOpen(false), []);
  const listOpen = suggest !== null && suggest.items.length > 0;
  return (
    <div className="search" role="search" ref={rootRef}>
      <input
        ref={inputRef}
        id="search"
        type="search"
        aria-label="Search"
        placeholder="Search: words, model:, seed:, rating:>=4, tag:…  ( / )"
        value={text}
        autoComplete="off"
        spellCheck={false}
        aria-controls={listOpen ? 'search-suggestions' : undefined}
        aria-autocomplete="list"
        aria-activedescendant={listOpen && highlight >= 0 ? `search-suggestion-${highlight}` : undefined}
        onChange={(e) => {
          onChange(e.target.value);
          askSuggestions(e.target.value, e.target.selectionStart ?? e.target.value.length);
        }}
        onBlur={() => window.setTimeout(closeSuggestions, 150)}
        onKeyDown={(e) => {
          // The help card is the top layer: Escape closes it before the suggestions or the text.
          if (helpOpen && e.key === 'Escape') {
            e.preventDefault();
            setHelpOpen(false);
            return;
          }
          if (listOpen && (e.key === 'ArrowDown' || e.key === 'ArrowUp')) {
            e.preventDefault();
            setHighlight((h) => moveHighlight(h, e.key === 'ArrowDown' ? 1 : -1, suggest.items.length));
            return;
          }
          if (listOpen && highlight >= 0 && (e.key === 'Enter' || e.key === 'Tab')) {
            e.preventDefault();
            choose(highlight);
            return;
          }
          // No suggestions open: ↓ goes on into the results, as in a file browser.
          if (!listOpen && e.key === 'ArrowDown' && focusGrid()) {
            e.preventDefault();
            return;
          }
          if (listOpen && e.key === 'Escape') {
            e.preventDefault();
            closeSuggestions();
            return;
          }
          if (e.key === 'Escape' && text !== '') {
            e.preventDefault();
            onChange('');
          } else if (e.key === 'Escape') {
            e.currentTarget.blur();
          }
        }}
      />
      <button
        type="button"
        className="icon search-help-button"
        aria-label="Search help"
        aria-expanded={helpOpen}
        title="What you can search for"
        onClick={() => setHelpOpen((v) => !v)}
      >
        ?
      </button>
      {listOpen ? (
        <ul className="suggestions" id="search-suggestions" role="listbox" aria-label="Suggestions">
          {suggest.items.map((item, i) => (
            <li
              key={`${item.kind}:${item.label}`}
              id={`search-suggestion-${i}`}
              role="option"
              aria-selected={i === highlight}
              className={i === highlight ? 'active' : undefined}
              onMouseDown={(e) => {
                e.preventDefault();
                choose(i);
              }}
            >
              <span className={item.kind === 'key' ? 'suggestion-key' : 'suggestion-value'}>{item.label}</span>
              {item.hint !== undefined ? <span className="muted small">{item.hint}</span> : null}
              {item.count !== undefined ? <span className="count">{item.count.toLocaleString('en-US')}</span> : null}
            </li>
          ))}
        </ul>
      ) : null}
      <SearchError />
      {helpOpen ? <SearchHelp onClose={closeHelp} root={rootRef} /> : null}
    </div>
  );
}
