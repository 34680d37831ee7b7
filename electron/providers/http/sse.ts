/**
 * One server-sent event (https://html.spec.whatwg.org/multipage/server-sent-events.html#event-stream-interpretation).
 */
export interface SseEvent {
  /** The `event:` field, or 'message' when absent. */
  event: string;
  /** `data:` lines joined with "\n". */
  data: string;
  id?: string;
}

/**
 * Parses an event stream from raw chunks. Lines may end in LF, CRLF or CR (also split across chunks); comment
 * lines (": keepalive") and unknown fields are ignored. Long lines (multi-MB base64) are joined once, not re-scanned.
 */
export async function* parseSse(chunks: AsyncIterable<Uint8Array>): AsyncGenerator<SseEvent> {
  const decoder = new TextDecoder('utf-8');
  const parser = new SseLineParser();
  for await (const chunk of chunks) {
    yield* parser.push(decoder.decode(chunk, { stream: true }));
  }
  yield* parser.push(decoder.decode());
  parser.end();
}

class SseLineParser {
  private lineParts: string[] = [];
  /** The previous chunk ended in CR: an LF at the start of the next one belongs to it. */
  private skipLeadingLf = false;
  private eventName = '';
  private dataLines: string[] = [];
  private hasData = false;
  private lastId: string | undefined;

  *push(text: string): Generator<SseEvent> {
    let start = 0;
    if (this.skipLeadingLf && text.length > 0) {
      if (text.charCodeAt(0) === 10) start = 1;
      this.skipLeadingLf = false;
    }
    for (let i = start; i < text.length; i += 1) {
      const c = text.charCodeAt(i);
      if (c !== 10 && c !== 13) continue;
      this.lineParts.push(text.slice(start, i));
      const line = this.lineParts.length === 1 ? this.lineParts[0]! : this.lineParts.join('');
      this.lineParts = [];
      if (c === 13) {
        if (i + 1 < text.length) {
          if (text.charCodeAt(i + 1) === 10) i += 1;
        } else {
          this.skipLeadingLf = true;
        }
      }
      start = i + 1;
      const event = this.line(line);
      if (event !== null) yield event;
    }
    if (start < text.length) this.lineParts.push(text.slice(start));
  }

  /** A final line without a terminator is dropped with its event: only a blank line dispatches (per spec). */
  end(): void {
    this.lineParts = [];
  }

  private line(line: string): SseEvent | null {
    if (line === '') return this.dispatch();
    if (line.charCodeAt(0) === 58) return null; // ':' comment / keepalive
    const colon = line.indexOf(':');
    const field = colon === -1 ? line : line.slice(0, colon);
    let value = colon === -1 ? '' : line.slice(colon + 1);
    if (value.charCodeAt(0) === 32) value = value.slice(1);
    if (field === 'event') this.eventName = value;
    else if (field === 'data') {
      this.dataLines.push(value);
      this.hasData = true;
    } else if (field === 'id' && !value.includes('\u0000')) this.lastId = value;
    return null;
  }

  private dispatch(): SseEvent | null {
    const event: SseEvent | null = this.hasData
      ? {
          event: this.eventName === '' ? 'message' : this.eventName,
          data: this.dataLines.join('\n'),
          ...(this.lastId === undefined ? {} : { id: this.lastId }),
        }
      : null;
    this.eventName = '';
    this.dataLines = [];
    this.hasData = false;
    return event;
  }
}
