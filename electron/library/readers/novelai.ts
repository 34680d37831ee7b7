import { compact, numberField, parseJsonObject, textField } from './fields.js';
import { isObject } from './json.js';
import { seedString, type GeneratorRead, type TextMap } from './types.js';

/**
 * V4 and V4.5 keep the prompt as a caption: `{caption: {base_caption, char_captions: [{char_caption, centers}]}}`.
 * The base caption, then one line per character; undefined when there is none.
 */
function captionText(value: unknown): string | undefined {
  const caption = isObject(value) ? value['caption'] : undefined;
  if (!isObject(caption)) return undefined;
  const characters = Array.isArray(caption['char_captions']) ? caption['char_captions'] : [];
  const lines = [caption['base_caption'], ...characters.map((c) => (isObject(c) ? c['char_caption'] : undefined))]
    .map((line) => (typeof line === 'string' ? line.trim() : ''))
    .filter((line) => line !== '');
  return lines.length > 0 ? lines.join('\n') : undefined;
}

/** WebP and JPEG downloads keep the PNG's texts as one JSON object in the EXIF UserComment. */
function exifTexts(texts: TextMap): TextMap | undefined {
  if (!/^\s*NovelAI/i.test(texts.get('exif:Software') ?? '')) return undefined;
  const json = parseJsonObject(texts.get('exif:UserComment'));
  if (json === undefined) return undefined;
  const map = new Map<string, string>();
  for (const [key, value] of Object.entries(json)) if (typeof value === 'string') map.set(key, value);
  if (!map.has('Source')) map.set('Source', texts.get('exif:Software')!.trim());
  return map;
}

function novelaiTexts(texts: TextMap): TextMap | undefined {
  if (/^\s*NovelAI/i.test(texts.get('Software') ?? '')) return texts;
  return exifTexts(texts);
}

/** NovelAI: `Software` = NovelAI, `Description` = prompt, `Source` = model, `Comment` = JSON of the settings. */
export function readNovelai(found: TextMap): GeneratorRead | undefined {
  const texts = novelaiTexts(found);
  if (texts === undefined) return undefined;
  const problems: string[] = [];
  const commentText = texts.get('Comment');
  const parsed = parseJsonObject(commentText);
  const comment = parsed ?? {};
  if (commentText !== undefined && parsed === undefined) problems.push('The NovelAI Comment is not valid JSON.');
  const seed = comment['seed'] === undefined ? undefined : seedString(comment['seed']);
  if (comment['seed'] !== undefined && seed === undefined)
    problems.push(`Seed ${JSON.stringify(comment['seed'])} is not a whole number.`);
  return {
    source: 'novelai',
    settings: compact({
      prompt: captionText(comment['v4_prompt']) ?? textField(texts.get('Description')) ?? textField(comment['prompt']),
      negativePrompt: captionText(comment['v4_negative_prompt']) ?? textField(comment['uc']),
      seed,
      steps: numberField(comment['steps'], 'Steps', problems),
      guidance: numberField(comment['scale'], 'Scale', problems),
      sampler: textField(comment['sampler']),
      scheduler: textField(comment['noise_schedule']),
      model: textField(texts.get('Source')),
      width: numberField(comment['width'], 'Width', problems),
      height: numberField(comment['height'], 'Height', problems),
    }),
    problems,
  };
}
