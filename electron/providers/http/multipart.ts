import { randomBytes } from 'node:crypto';

/** One form part: a string field, or a file with its name and type. */
export type FormPart =
  { name: string; value: string } | { name: string; filename: string; contentType: string; data: Uint8Array };

export interface MultipartBody {
  bytes: Buffer;
  contentType: string;
}

/**
 * multipart/form-data (RFC 7578) built in memory: the parts are small enough (an image and its mask), and exact
 * bytes let a request be traced and tested. Names and filenames are quoted with CR, LF and `"` percent-encoded,
 * as browsers do, so a value can never break out of its header.
 */
export function buildMultipart(parts: readonly FormPart[]): MultipartBody {
  const boundary = `----atelier-${randomBytes(12).toString('hex')}`;
  const chunks: Buffer[] = [];
  for (const part of parts) {
    let head = `--${boundary}\r\nContent-Disposition: form-data; name="${quote(part.name)}"`;
    if ('filename' in part)
      head += `; filename="${quote(part.filename)}"\r\nContent-Type: ${part.contentType.replace(/[\r\n]/g, '')}`;
    chunks.push(Buffer.from(`${head}\r\n\r\n`, 'utf8'));
    chunks.push(
      'filename' in part
        ? Buffer.from(part.data.buffer, part.data.byteOffset, part.data.byteLength)
        : Buffer.from(part.value, 'utf8'),
    );
    chunks.push(Buffer.from('\r\n', 'utf8'));
  }
  chunks.push(Buffer.from(`--${boundary}--\r\n`, 'utf8'));
  return { bytes: Buffer.concat(chunks), contentType: `multipart/form-data; boundary=${boundary}` };
}

function quote(text: string): string {
  return text.replace(/\r/g, '%0D').replace(/\n/g, '%0A').replace(/"/g, '%22');
}
