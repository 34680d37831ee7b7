import { useEffect, useMemo, useRef, useState } from 'react';
import { createLatestRunner } from '../lib/latest-runner';
import { useApp, useAppStore } from '../store/context';

/** A pause this long ends a burst of typing: the thumbnails of the results on screen load then. */
const TYPING_PAUSE_MS = 150;

export function SearchBar() {
  const store = useAppStore();
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
    },
    [],
  );

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

  return (
    <div className="search" role="search">
      <input
        id="search"
        type="search"
        aria-label="Search"
        placeholder="Search prompts  ( / )"
        value={text}
        autoComplete="off"
        spellCheck={false}
        onChange={(e) => onChange(e.target.value)}
        onKeyDown={(e) => {
          if (e.key === 'Escape' && text !== '') {
            e.preventDefault();
            onChange('');
          } else if (e.key === 'Escape') {
            e.currentTarget.blur();
          }
        }}
      />
    </div>
  );
}
