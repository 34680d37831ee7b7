/** What Settings says when ComfyUI sends no previews: it only does when started with --preview-method. */
export const NO_PREVIEWS_HINT =
  'This ComfyUI sends no previews while it works: start it with --preview-method auto (or taesd) to see the picture ' +
  'form. Progress is shown either way.';

/**
 * Whether the server was started with previews on, from /system_stats `argv`: ComfyUI's default is none
 * (comfy/cli_args.py), the last --preview-method given wins (argparse), and a server that hides its argv is unknown.
 */
export function previewsFromArgv(argv: unknown): 'on' | 'off' | 'unknown' {
  if (!Array.isArray(argv) || !argv.every((a) => typeof a === 'string')) return 'unknown';
  let method = 'none';
  argv.forEach((arg: string, i) => {
    if (arg === '--preview-method' && typeof argv[i + 1] === 'string') method = argv[i + 1] as string;
    else if (arg.startsWith('--preview-method=')) method = arg.slice('--preview-method='.length);
  });
  return method.toLowerCase() === 'none' ? 'off' : 'on';
}
