/** A ring that fills clockwise from the top; no fraction yet draws a short arc (turning only where motion is welcome). */
export function ProgressRing({
  fraction,
  size = 36,
  label,
}: {
  fraction: number | null;
  size?: number;
  label: string;
}) {
  const stroke = Math.max(3, Math.round(size / 10));
  const r = (size - stroke) / 2;
  const c = 2 * Math.PI * r;
  const known = fraction !== null && Number.isFinite(fraction);
  const shown = known ? Math.min(1, Math.max(0, fraction)) : 0.18;
  return (
    <svg
      className={known ? 'progress-ring' : 'progress-ring indeterminate'}
      width={size}
      height={size}
      viewBox={`0 0 ${size} ${size}`}
      role="progressbar"
      aria-label={label}
      aria-valuemin={0}
      aria-valuemax={100}
      {...(known ? { 'aria-valuenow': Math.round(shown * 100) } : {})}
    >
      <circle className="ring-track" cx={size / 2} cy={size / 2} r={r} strokeWidth={stroke} fill="none" />
      <circle
        className="ring-fill"
        cx={size / 2}
        cy={size / 2}
        r={r}
        strokeWidth={stroke}
        fill="none"
        strokeLinecap="round"
        strokeDasharray={c}
        strokeDashoffset={c * (1 - shown)}
        transform={`rotate(-90 ${size / 2} ${size / 2})`}
      />
    </svg>
  );
}
