export { embedSettings, a1111ParametersFor, type ImageSettings } from './embed-settings.js';
export { readPngMetadata, type ImageMetadata, type GenerationSettings, type MetadataSource } from './read-metadata.js';
export { formatParameters, parseParameters, type A1111Parameters, type A1111Settings } from './a1111-parameters.js';
export { readChunks, writeChunks, isPng, type PngChunk } from './chunks.js';
export { encodeTextChunk, decodeTextChunk, readTextChunks, type PngText } from './text-chunks.js';
export { ATELIER_KEYWORD, type AtelierChunk } from './atelier-chunk.js';
