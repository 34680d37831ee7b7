/** One part of a multipart/form-data body as a server parses it. */
export interface ParsedPart {
  name: string;
  filename?: string;
  contentType?: string;
  data: Buffer;
}

/** Splits a multipart/form-data body on its boundary (RFC 7578); null when it is not one. */
export function parseMultipart(contentType: string | undefined, raw: Buffer): ParsedPart[] | null {
  const boundary = /^multipart\/form-data;.*\bboundary=(?:"([^"]+)"|([^;\s]+))/i.exec(contentType ?? '');
  if (boundary === null) return null;
  const delimiter = Buffer.from(`--${boundary[1] ?? boundary[2]}`);
  const parts: ParsedPart[] = [];
  let at = raw.indexOf(delimiter);
  if (at < 0) return null;
  for (;;) {
    at += delimiter.length;
    if (raw.subarray(at, at + 2).toString() === '--') return parts;
    at += 2; // CRLF after the delimiter
    const headEnd = raw.indexOf('\r\n\r\n', at);
    const next = raw.indexOf(delimiter, at);
    if (headEnd < 0 || next < 0) return null;
    const head = raw.subarray(at, headEnd).toString('utf8');
    const disposition = /content-disposition:\s*form-data;\s*name="([^"]*)"(?:;\s*filename="([^"]*)")?/i.exec(head);
    if (disposition === null) return null;
    const type = /content-type:\s*([^\r\n]+)/i.exec(head)?.[1];
    parts.push({
      name: disposition[1]!,
      ...(disposition[2] === undefined ? {} : { filename: disposition[2] }),
      ...(type === undefined ? {} : { contentType: type.trim() }),
      // The part's data ends with the CRLF that precedes the next delimiter.
      data: raw.subarray(headEnd + 4, next - 2),
    });
    at = next;
  }
}
