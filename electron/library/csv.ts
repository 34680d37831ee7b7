/**
 * CSV as Python's csv module reads and writes it (the excel dialect, RFC 4180): quoted fields may hold commas,
 * doubled quotes and line breaks; records end in CRLF, LF or CR. Like Python outside strict mode, a stray quote
 * inside an unquoted field, or text after a closing quote, is kept as text rather than refused.
 */

export interface CsvRecord {
  /** The 1-based line the record starts on (a quoted line break makes a record span lines). */
  line: number;
  fields: string[];
}

export interface CsvParse {
  records: CsvRecord[];
  /** A quoted field never closed: it ran to the end of the text, so the record from this line on was not read. */
  unclosedAt?: number;
}

export interface CsvOptions {
  /** Spaces right after a comma (or at a line's start) are not part of the field (A1111 reads its styles so). */
  skipInitialSpace?: boolean;
}

type State = 'start' | 'unquoted' | 'quoted' | 'quoteInQuoted';

/** Where an unquoted field's text stops: the next comma or line break from `from` (quotes inside are text). */
function runEnd(text: string, from: number): number {
  let end = from;
  while (end < text.length) {
    const c = text.charCodeAt(end);
    if (c === 0x2c || c === 0x0a || c === 0x0d) break;
    end += 1;
  }
  return end;
}

/** Line breaks in a piece of text, CRLF counted once. */
const lineBreaks = (text: string): number => text.match(/\r\n|\r|\n/gu)?.length ?? 0;

export function parseCsv(text: string, options: CsvOptions = {}): CsvParse {
  const records: CsvRecord[] = [];
  let fields: string[] = [];
  let field = '';
  let state: State = 'start';
  // Whether anything of the current record has been read: a line with nothing on it is no record (Python skips it).
  let started = false;
  let line = 1;
  let recordLine = 1;

  const endField = (): void => {
    fields.push(field);
    field = '';
  };
  const endRecord = (): void => {
    endField();
    records.push({ line: recordLine, fields });
    fields = [];
    started = false;
  };

  for (let i = 0; i < text.length;) {
    // Runs of plain text are taken whole: a 5 MB file is read in a fraction of a second, not char by char.
    if (state === 'quoted') {
      const quote = text.indexOf('"', i);
      if (quote < 0) return { records, unclosedAt: recordLine };
      const chunk = text.slice(i, quote);
      field += chunk;
      line += lineBreaks(chunk);
      state = 'quoteInQuoted';
      i = quote + 1;
      continue;
    }
    if (state === 'unquoted') {
      const end = runEnd(text, i);
      if (end > i) {
        field += text.slice(i, end);
        i = end;
        continue;
      }
    }
    // CRLF is one line break, read as one character.
    const c = text[i] === '\r' && text[i + 1] === '\n' ? '\r\n' : text[i]!;
    i += c.length;
    const lineBreak = c === '\n' || c === '\r' || c === '\r\n';
    if (!started && !lineBreak) {
      started = true;
      recordLine = line;
    }
    if (lineBreak) {
      if (started) endRecord();
      state = 'start';
      line += 1;
    } else if (state === 'quoteInQuoted') {
      if (c === '"') {
        field += '"';
        state = 'quoted';
      } else if (c === ',') {
        endField();
        state = 'start';
      } else {
        field += c;
        state = 'unquoted';
      }
    } else if (c === ',') {
      endField();
      state = 'start';
    } else if (state === 'start' && c === '"') {
      state = 'quoted';
    } else if (state === 'start' && c === ' ' && options.skipInitialSpace === true) {
      // A field's leading space is skipped, and a quote right after it still opens a quoted field.
    } else {
      field += c;
      state = 'unquoted';
    }
  }
  if (state === 'quoted') return { records, unclosedAt: recordLine };
  if (started) endRecord();
  return { records };
}

/** Whether a field must be quoted to read back as itself (a leading space too, for readers that skip it). */
const NEEDS_QUOTES = /[",\r\n]|^ /u;

/** Records as Python's csv writer writes them (QUOTE_MINIMAL, CRLF after each record). */
export function formatCsv(records: readonly (readonly string[])[], lineEnd = '\r\n'): string {
  return records
    .map((fields) => {
      // A record of one empty field is written "" so it does not read back as a blank line.
      if (fields.length === 1 && fields[0] === '') return `""${lineEnd}`;
      return fields.map((f) => (NEEDS_QUOTES.test(f) ? `"${f.replaceAll('"', '""')}"` : f)).join(',') + lineEnd;
    })
    .join('');
}
