/** The XMP a sidecar holds: the rating (xmp:Rating, 0–5), the tags (dc:subject) and the person's note
 * (dc:description), which Lightroom, digiKam, darktable and Bridge read. Nothing else: the image's own metadata stays
 * in the image. */

const escape = (text: string): string =>
  text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

export function xmpPacket(rating: number, tags: readonly string[], note = ''): string {
  const subjects = tags.map((t) => `          <rdf:li>${escape(t)}</rdf:li>`).join('\n');
  const description =
    note.length === 0
      ? ''
      : `
      <dc:description>
        <rdf:Alt>
          <rdf:li xml:lang="x-default">${escape(note)}</rdf:li>
        </rdf:Alt>
      </dc:description>`;
  return `<?xpacket begin="\uFEFF" id="W5M0MpCehiHzreSzNTczkc9d"?>
<x:xmpmeta xmlns:x="adobe:ns:meta/" x:xmptk="Atelier">
  <rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#">
    <rdf:Description rdf:about="" xmlns:xmp="http://ns.adobe.com/xap/1.0/" xmlns:dc="http://purl.org/dc/elements/1.1/"
        xmp:Rating="${Math.max(0, Math.min(5, Math.trunc(rating)))}">
      <dc:subject>
        <rdf:Bag>
${subjects}
        </rdf:Bag>
      </dc:subject>${description}
    </rdf:Description>
  </rdf:RDF>
</x:xmpmeta>
<?xpacket end="w"?>
`;
}

/** `photo.png` → `photo.png.xmp`: one sidecar per file even when photo.png and photo.jpg share a folder. */
export const sidecarPath = (original: string): string => `${original}.xmp`;
