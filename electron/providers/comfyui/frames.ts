/** A decoded binary WebSocket frame (docs/provider-protocols.md §3.4): everything big-endian uint32. */
export interface PreviewFrame {
  mime: string;
  data: Uint8Array;
  /** Only type-4 frames (negotiated supports_preview_metadata) name their prompt. */
  promptId?: string;
}

/** Decodes a preview frame; returns null for other frame types (text progress) or truncated frames. */
export function decodePreviewFrame(frame: Buffer): PreviewFrame | null {
  if (frame.length < 8) return null;
  const type = frame.readUInt32BE(0);
  if (type === 1) {
    const imageType = frame.readUInt32BE(4);
    return { mime: imageType === 2 ? 'image/png' : 'image/jpeg', data: frame.subarray(8) };
  }
  if (type === 4) {
    const metaLength = frame.readUInt32BE(4);
    if (frame.length < 8 + metaLength) return null;
    let meta: { prompt_id?: unknown; image_type?: unknown } = {};
    try {
      meta = JSON.parse(frame.subarray(8, 8 + metaLength).toString('utf8')) as typeof meta;
    } catch {
      return null;
    }
    const out: PreviewFrame = {
      mime: typeof meta.image_type === 'string' ? meta.image_type : 'image/jpeg',
      data: frame.subarray(8 + metaLength),
    };
    if (typeof meta.prompt_id === 'string') out.promptId = meta.prompt_id;
    return out;
  }
  return null;
}
