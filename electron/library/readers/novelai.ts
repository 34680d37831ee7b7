import { compact, numberField, parseJsonObject, textField } from './fields.js';
import { seedString, type GeneratorRead, type TextMap } from './types.js';

/** NovelAI PNG: `Software` = NovelAI, `Description` = prompt, `Source` = model, `Comment` = JSON of the settings. */
export function readNovelai(texts: TextMap): GeneratorRead | undefined {
  const software = texts.get('Software');
  if (software === undefined || !/^\s*NovelAI/i.test(software)) return undefined;
  const problems: string[] = [];
  const commentText = texts.get('Comment');
  const comment = parseJsonObject(commentText) ?? {};
  if (commentText !== undefined && parseJsonObject(commentText) === undefined)
    problems.push('The NovelAI Comment is not valid JSON.');
  const seed = comment.seed === undefined ? undefined : seedString(comment.seed);
  if (comment.seed !== undefined && seed === undefined)
    problems.push(`Seed ${JSON.stringify(comment.seed)} is not a whole number.`);
  return {
    source: 'novelai',
    settings: compact({
      prompt: textField(texts.get('Description')) ?? textField(comment.prompt),
      negativePrompt: textField(comment.uc),
      seed,
      steps: numberField(comment.steps, 'Steps', problems),
      guidance: numberField(comment.scale, 'Scale', problems),
      sampler: textField(comment.sampler),
      scheduler: textField(comment.noise_schedule),
      model: textField(texts.get('Source')),
      width: numberField(comment.width, 'Width', problems),
      height: numberField(comment.height, 'Height', problems),
    }),
    problems,
  };
}
