import type { PriceRow, ProviderSpend, SpendSettingsPatch } from '../../../../shared/contract';
import { formatCount } from '../../common/format';
import { useApp } from '../../store/context';
import { DollarsField } from './DollarsField';
import { capShare, dayLines, formatPrice, formatUsd } from './spend-view';
import { useSpendSummary } from './use-spend-summary';
import './spend.css';

const MAX_CAP_USD = 1_000_000;
const MAX_PRICE_USD = 1_000;

function ProviderRows({
  provider,
  save,
}: {
  provider: ProviderSpend;
  save: (patch: SpendSettingsPatch) => Promise<void>;
}) {
  const share = capShare(provider.monthUsd, provider.runningUsd, provider.capUsd);
  return (
    <>
      <tr data-provider={provider.id}>
        <th scope="row">{provider.name}</th>
        <td className="money">{formatUsd(provider.todayUsd)}</td>
        <td className="money">
          {formatUsd(provider.monthUsd)}
          {provider.estimated ? <span title="Partly estimated from the prices below">*</span> : null}
          {share === null ? null : (
            <span className="spend-meter" data-full={share >= 1} aria-hidden="true">
              <span style={{ width: `${Math.round(share * 100)}%` }} />
            </span>
          )}
        </td>
        <td className="money">
          <DollarsField
            id={`spend-cap-${provider.id}`}
            label={`Monthly cap for ${provider.name}, in dollars`}
            value={provider.capUsd}
            max={MAX_CAP_USD}
            placeholder="No cap"
            onSave={(usd) => save({ monthlyCapUsd: { [provider.id]: usd } })}
          />
        </td>
      </tr>
      {provider.pausedByCap === null ? null : (
        <tr className="spend-paused">
          <td colSpan={4} role="status">
            {provider.pausedByCap}
          </td>
        </tr>
      )}
    </>
  );
}

function PriceRowView({ row, save }: { row: PriceRow; save: (patch: SpendSettingsPatch) => Promise<void> }) {
  const fallback = row.defaultUsd === null ? 'no list price' : `list ${formatPrice(row.defaultUsd)}`;
  return (
    <tr data-price={row.key}>
      <th scope="row" className="mono">
        {row.kind} · {row.model}
      </th>
      <td className="muted">
        {row.yours ? 'yours' : fallback}
        {row.note === undefined ? null : ` (${row.note})`}
      </td>
      <td className="money">
        <DollarsField
          id={`spend-price-${row.key}`}
          label={`Price per image for ${row.model}, in dollars`}
          value={row.yours ? row.usdPerImage : null}
          max={MAX_PRICE_USD}
          placeholder={String(row.usdPerImage)}
          onSave={(usd) => save({ prices: { [row.key]: usd } })}
        />
      </td>
    </tr>
  );
}

/** Each day's spend this month, per provider, folded away until asked for. */
function DaysThisMonth({ providers }: { providers: ProviderSpend[] }) {
  const lines = dayLines(providers);
  if (lines.length === 0) return null;
  return (
    <details className="spend-days">
      <summary>By day this month</summary>
      <table className="spend-table" aria-label="Spend by day">
        <tbody>
          {lines.map((line) => (
            <tr key={line.key}>
              <th scope="row" className="mono">
                {line.day}
              </th>
              <td>{line.provider}</td>
              <td className="muted">{formatCount(line.jobs, 'job')}</td>
              <td className="money">{formatUsd(line.usd)}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </details>
  );
}

/** Settings → Spend: each paid provider's day and month, an optional monthly cap, and the prices estimates use. */
export function SpendSection() {
  const { summary, reload } = useSpendSummary();
  const update = useApp((s) => s.updateSettings);
  const toast = useApp((s) => s.toast);
  const save = async (patch: SpendSettingsPatch): Promise<void> => {
    if (await update({ spend: patch })) {
      toast({ kind: 'info', message: 'Settings saved.' });
      await reload();
    }
  };
  return (
    <section aria-labelledby="spend-title" className="spend">
      <h3 id="spend-title">Spend</h3>
      {summary === null ? (
        <div className="skeleton line" aria-label="Loading spend" />
      ) : summary.providers.length === 0 ? (
        <p className="hint">No paid provider is set up: local servers and the built-in generator cost nothing.</p>
      ) : (
        <>
          <p className="hint">
            What each job cost where the provider says, else an estimate (*) from the prices below. A provider with a
            cap pauses before a job would pass it; caps start over on {summary.capsResetOn}.
          </p>
          <table className="spend-table" aria-label="Spend per provider">
            <thead>
              <tr>
                <th scope="col">Provider</th>
                <th scope="col" className="money">
                  Today
                </th>
                <th scope="col" className="money">
                  This month
                </th>
                <th scope="col" className="money">
                  Monthly cap
                </th>
              </tr>
            </thead>
            <tbody>
              {summary.providers.map((provider) => (
                <ProviderRows key={provider.id} provider={provider} save={save} />
              ))}
            </tbody>
          </table>
          <DaysThisMonth providers={summary.providers} />
          <h4 className="subsection-title">Prices per image</h4>
          <table className="spend-table" aria-label="Prices per image">
            <tbody>
              {summary.prices.map((row) => (
                <PriceRowView key={row.key} row={row} save={save} />
              ))}
            </tbody>
          </table>
        </>
      )}
    </section>
  );
}
