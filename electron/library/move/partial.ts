import { open, readdir, rmdir, unlink, type FileHandle } from 'node:fs/promises';
import { join } from 'node:path';
import { AppError } from '../../../shared/errors.js';
import { readGuardedHere } from '../originals/original-reader.js';

/**
 * Written first into a move's target and removed once the copy is verified: a target that still holds it is a copy a
 * killed move left behind. Its lines name, one by one, each file and folder the move created there, so a retry can
 * remove exactly those and nothing else.
 */
export const PARTIAL_MARKER = 'atelier.move-incomplete';

const HEADER = 'atelier-move-incomplete 1';
/** One line per file and folder copied: far below this for any library; a larger "marker" is not Atelier's. */
const MAX_MARKER_BYTES = 64 * 1024 * 1024;

export interface MoveJournal {
  /** Records a file or folder the move has just created (exclusively: nobody else's file is ever named here). */
  add(rel: string): Promise<void>;
  /** The copy is verified: the marker goes, and the folder is a library like any other. */
  finish(): Promise<void>;
  close(): Promise<void>;
}

/** Starts the marker in an empty (or new) target; fails if one is there already. */
export async function startJournal(target: string, from: string): Promise<MoveJournal> {
  const path = join(target, PARTIAL_MARKER);
  const handle: FileHandle = await open(path, 'wx', 0o644);
  let closed = false;
  await handle.appendFile(`${HEADER}\n${JSON.stringify({ from, startedAt: new Date().toISOString() })}\n`);
  await handle.sync();
  const close = async (): Promise<void> => {
    if (closed) return;
    closed = true;
    await handle.close();
  };
  return {
    add: async (rel) => {
      await handle.appendFile(`${JSON.stringify(rel)}\n`);
    },
    async finish() {
      await close();
      await unlink(path);
    },
    close,
  };
}

/** What the marker says the killed move created, or null when the folder holds no marker of Atelier's. */
async function readJournal(target: string): Promise<{ from: string | null; created: string[] } | null> {
  let text: string;
  try {
    // The folder is the person's: the marker is read like any file Atelier did not write (itself, never a link, a pipe or a giant).
    const { bytes } = await readGuardedHere({
      path: join(target, PARTIAL_MARKER),
      root: join(target, PARTIAL_MARKER),
      maxBytes: MAX_MARKER_BYTES,
    });
    text = new TextDecoder().decode(bytes);
  } catch {
    return null;
  }
  const lines = text.split('\n');
  if (lines[0] !== HEADER) return null;
  let from: string | null = null;
  try {
    from = (JSON.parse(lines[1] ?? '') as { from?: unknown }).from as string;
  } catch {
    // A header cut short by the kill: the folder is still Atelier's partial copy, its origin just unknown.
  }
  const created: string[] = [];
  for (const line of lines.slice(2)) {
    try {
      const rel = JSON.parse(line) as unknown;
      if (typeof rel === 'string' && rel !== '' && !rel.split(/[\\/]/).includes('..')) created.push(rel);
    } catch {
      // The last line may be cut short by the kill; what it would have named was not created after it.
    }
  }
  return { from, created };
}

type Entry = { rel: string; kind: 'file' | 'dir' | 'other' };

/** Every entry below `dir`, relative, without following links; folders after their contents. */
async function entriesUnder(dir: string, rel = ''): Promise<Entry[]> {
  const out: Entry[] = [];
  for (const entry of await readdir(join(dir, rel), { withFileTypes: true })) {
    const childRel = rel === '' ? entry.name : join(rel, entry.name);
    if (entry.isDirectory()) {
      out.push(...(await entriesUnder(dir, childRel)));
      out.push({ rel: childRel, kind: 'dir' });
    } else {
      out.push({ rel: childRel, kind: entry.isFile() ? 'file' : 'other' });
    }
  }
  return out;
}

export interface PartialCopy {
  target: string;
  /** The library it was copied from, when the marker still says so. */
  from: string | null;
  /** What the killed move created, files before folders (deepest first). */
  entries: Entry[];
}

/**
 * The copy a killed move left in `target`, when every entry there is one its marker names (a link or anything the
 * marker does not name is not Atelier's: the move is refused, naming it); null when the folder holds no marker.
 */
export async function partialCopyIn(target: string): Promise<PartialCopy | null> {
  const journal = await readJournal(target);
  if (journal === null) return null;
  const ours = new Set(journal.created.map((rel) => join(rel)));
  const entries = await entriesUnder(target);
  const foreign = entries.filter(
    (entry) => entry.rel !== PARTIAL_MARKER && (entry.kind === 'other' || !ours.has(entry.rel)),
  );
  if (foreign.length > 0) {
    const names = foreign
      .slice(0, 3)
      .map((entry) => entry.rel)
      .join(', ');
    throw new AppError(
      'invalid_request',
      `${target} holds an unfinished copy of a library (a move was interrupted) and also files Atelier did not write (${names}${foreign.length > 3 ? ', …' : ''}). Move those away, or choose another folder.`,
      {
        details: {
          reason: 'target_not_empty',
          path: target,
          partialCopy: true,
          foreign: foreign.slice(0, 20).map((entry) => entry.rel),
        },
      },
    );
  }
  return { target, from: journal.from, entries: entries.filter((entry) => entry.rel !== PARTIAL_MARKER) };
}

/** Removes what the killed move created (looked at again now: nothing else is ever removed), then its marker. */
export async function clearPartialCopy(target: string): Promise<number> {
  const partial = await partialCopyIn(target);
  if (partial === null) return 0;
  for (const entry of partial.entries.filter((e) => e.kind === 'file')) await unlink(join(target, entry.rel));
  for (const entry of partial.entries.filter((e) => e.kind === 'dir')) await rmdir(join(target, entry.rel));
  await unlink(join(target, PARTIAL_MARKER));
  return partial.entries.length;
}
