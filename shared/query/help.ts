/** The search keys with one line of help and an example each: the help card and the key suggestions share them. */
export const KEY_HELP: ReadonlyArray<{ key: string; hint: string; example: string }> = [
  { key: 'model', hint: 'Model name contains', example: 'model:sdxl' },
  { key: 'sampler', hint: 'Sampler name contains', example: 'sampler:euler' },
  { key: 'scheduler', hint: 'Scheduler name contains', example: 'scheduler:karras' },
  { key: 'lora', hint: 'Uses a LoRA whose name contains', example: 'lora:detail' },
  { key: 'seed', hint: 'Seed: exact, prefix* or a range', example: 'seed:1234*' },
  { key: 'steps', hint: 'Steps: a number, >=, <= or a range', example: 'steps:20-30' },
  { key: 'cfg', hint: 'CFG / guidance scale', example: 'cfg:>=7' },
  { key: 'size', hint: 'Exact width x height', example: 'size:512x768' },
  { key: 'w', hint: 'Width in pixels', example: 'w:>=1024' },
  { key: 'h', hint: 'Height in pixels', example: 'h:<768' },
  { key: 'ratio', hint: 'portrait, landscape, square or w:h', example: 'ratio:16:9' },
  { key: 'rating', hint: 'Your rating, 0–5', example: 'rating:>=4' },
  { key: 'tag', hint: 'Has this tag', example: 'tag:keeper' },
  { key: 'board', hint: 'On this board', example: 'board:"Cover ideas"' },
  {
    key: 'is',
    hint: 'favorite, trashed, rejected (hidden from All, X), failed, missing or derived (made from another image)',
    example: 'is:favorite',
  },
  { key: 'from', hint: 'Made from this image (its id)', example: 'from:0190a6e2-…' },
  { key: 'sweep', hint: "A sweep's cells (its id, or its first 8 characters)", example: 'sweep:0190a6e2' },
  { key: 'date', hint: 'today, yesterday, 7d, a month or a range', example: 'date:2026-11' },
  { key: 'source', hint: 'The tool that made it', example: 'source:comfyui' },
  { key: 'provider', hint: 'The provider that ran it', example: 'provider:openai' },
  { key: 'status', hint: 'Job status', example: 'status:failed' },
  { key: 'negative', hint: 'Negative prompt contains', example: 'negative:blurry' },
  { key: 'path', hint: "An imported original's path contains", example: 'path:2024/portraits' },
  { key: 'note', hint: 'Your note on the image contains', example: 'note:print' },
  { key: 'import', hint: 'Added by this import (Show N imported)', example: 'import:0190a6e2-…' },
];

/** How the rest of the language reads, for the help card. */
export const SYNTAX_HELP: ReadonlyArray<{ example: string; hint: string }> = [
  { example: 'red fox', hint: 'every word, in the prompt or settings (not the negative prompt: use negative:)' },
  { example: '"red fox"', hint: 'the exact phrase' },
  { example: '-blurry', hint: 'leave out images whose prompt has the word (use negative: for the negative prompt)' },
  { example: 'cat | dog', hint: 'either one' },
  { example: 'model:a|b', hint: 'either value of one key' },
];
