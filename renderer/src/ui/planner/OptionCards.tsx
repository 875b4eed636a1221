import type {
  DiskResult,
  Evaluation,
  OptionResult,
  Source,
} from '../../../../app/contract/planner.js';
import { formatGbPerSecond, formatSeconds, formatSize } from '../../../../app/common/format.js';
import { costWords, yearsWords } from '../../../../app/common/plan-words.js';

const statusText: Record<DiskResult['space'][number]['status'], string> = {
  comfortable: 'Comfortable',
  ok: 'Meets the minimum',
  'below-minimum': 'Below the minimum',
  full: 'Full',
};

/** A numbered reference to "Where the figures come from"; the source itself in its tooltip. */
function SourceRef({ id, sources }: { id: string | null; sources: readonly Source[] }) {
  const index = id ? sources.findIndex((s) => s.id === id) : -1;
  const source = sources[index];
  if (!source) return null;
  return (
    <a
      className="plan-source-ref"
      href={`#source-${source.id}`}
      title={`${source.title} — ${source.where} (${source.id})`}
    >
      [{index + 1}]
    </a>
  );
}

function DiskBlock({
  disk,
  horizon,
  sources,
}: {
  disk: DiskResult;
  horizon: number;
  sources: readonly Source[];
}) {
  const end = disk.space[horizon]!;
  const usedShare = Math.min(1, Math.max(0, end.usedBytes / disk.capacityBytes));
  const cliff = disk.afterCacheWriteBytesPerSecond < disk.writeBytesPerSecond;
  return (
    <div className="plan-disk">
      <div className="plan-disk-head">
        <span className="plan-disk-role">{disk.role === 'internal' ? 'Internal' : 'External'}</span>
        <span className="plan-disk-name">
          {formatSize(disk.capacityBytes)} · {disk.device.name}
          {disk.device.origin === 'measured' ? ' (measured)' : ''}
          {disk.device.origin === 'custom' ? ' (yours)' : ''}
        </span>
      </div>
      <div className="plan-disk-facts">
        {disk.role === 'external' ? <span>via {disk.link.modeName}</span> : null}
        <span>
          writes {formatGbPerSecond(disk.writeBytesPerSecond)}
          {cliff && disk.cacheBytes !== null ? ` for ${formatSize(disk.cacheBytes)}` : ''}
          {cliff ? ` → ${formatGbPerSecond(disk.afterCacheWriteBytesPerSecond)} after cache` : ''}
        </span>
      </div>
      <div
        className={`plan-space plan-space-${end.status}`}
        role="meter"
        aria-label={`${disk.role} disk used in year ${horizon}`}
        aria-valuemin={0}
        aria-valuemax={100}
        aria-valuenow={Math.round(usedShare * 100)}
      >
        <div className="plan-space-fill" style={{ width: `${usedShare * 100}%` }} />
      </div>
      <div className="plan-space-caption">
        <span>
          {formatSize(Math.max(0, end.freeBytes))} free in year {horizon} ·{' '}
          {Math.round((Math.max(0, end.freeBytes) / disk.capacityBytes) * 100)} %
        </span>
        <span className={`plan-chip plan-chip-${end.status}`}>{statusText[end.status]}</span>
      </div>
      <div className="plan-disk-facts">
        <span>
          {disk.wearLifeYears === null
            ? 'No daily writes: no wear to speak of'
            : `Wear life about ${yearsWords(disk.wearLifeYears)}`}
          {disk.wearLifeYears !== null && disk.tbwAssumed ? ' (endurance assumed)' : ''}
        </span>
        {disk.sources.some((id) => sources.some((s) => s.id === id)) ? (
          <span className="plan-disk-sources">
            figures{' '}
            {disk.sources.map((id) => (
              <SourceRef key={id} id={id} sources={sources} />
            ))}
          </span>
        ) : null}
      </div>
    </div>
  );
}

function OptionCost({ cost }: { cost: { figure: string; detail: string } }) {
  return (
    <div className="plan-cost">
      <span className="figure">{cost.figure}</span>
      <span className="figure-label">{cost.detail}</span>
    </div>
  );
}

function OptionCard({
  option,
  evaluation,
  colorIndex,
}: {
  option: OptionResult;
  evaluation: Evaluation;
  colorIndex: number;
}) {
  const recommended = evaluation.recommendation.option === option.index;
  const horizon = evaluation.scenario.horizonYears;
  return (
    <article
      className={`card plan-card plan-color-${colorIndex}${recommended ? ' plan-card-recommended' : ''}${option.meetsRules ? '' : ' plan-card-set-aside'}`}
      aria-label={`Option ${option.index + 1}: ${option.name}`}
      data-testid="plan-option"
    >
      {recommended || !option.meetsRules ? (
        <div className="plan-card-badges">
          {recommended ? <span className="plan-badge">Recommended</span> : null}
          {!option.meetsRules ? (
            <span className="plan-badge plan-badge-muted">Set aside</span>
          ) : null}
        </div>
      ) : null}
      <header className="plan-card-head">
        <span className="plan-swatch" aria-hidden="true" />
        <h3>{option.name}</h3>
      </header>
      {option.costRangeUsd === null ? (
        // An unknown price is asked for, never shown as $0.
        <div className="plan-cost plan-cost-missing" data-testid="plan-price-missing">
          <span className="figure">Price needed</span>
          <span className="figure-label">
            {option.missingPrices
              .map((m) => `Give the ${m.disk} SSD's price in option ${option.index + 1}`)
              .join('; ')}
          </span>
        </div>
      ) : (
        <OptionCost cost={costWords(option.costRangeUsd, option.costPerAddedTbUsd)} />
      )}
      <ul className="plan-bursts" aria-label="Burst times">
        {option.bursts.map((burst) => (
          <li key={burst.name}>
            <span className="plan-burst-name">{burst.name}</span>
            <span className="plan-burst-time">
              {burst.fits ? formatSeconds(burst.totalSeconds) : 'Does not fit'}
            </span>
            <span className="plan-burst-detail">
              {[
                burst.seconds.length > 1
                  ? `${burst.seconds.length} × ${formatSize(burst.bytes)}`
                  : '',
                burst.afterCacheBytes > 0 && burst.cacheBytesAvailable !== null
                  ? `${formatSize(burst.afterCacheBytes)} after the cache`
                  : '',
                burst.fits && Math.abs(burst.totalSecondsAtHorizon - burst.totalSeconds) > 0.05
                  ? `${formatSeconds(burst.totalSecondsAtHorizon)} in year ${horizon}`
                  : '',
              ]
                .filter(Boolean)
                .join(' · ')}
            </span>
          </li>
        ))}
      </ul>
      {option.disks.map((disk) => (
        <DiskBlock key={disk.role} disk={disk} horizon={horizon} sources={evaluation.sources} />
      ))}
      {option.warnings.length > 0 ? (
        <ul className="plan-warnings" aria-label="Warnings">
          {option.warnings.map((warning, index) => (
            <li key={index}>
              {warning.message} <SourceRef id={warning.source} sources={evaluation.sources} />
            </li>
          ))}
        </ul>
      ) : null}
    </article>
  );
}

export function OptionCards({ evaluation }: { evaluation: Evaluation }) {
  return (
    <div className="plan-cards">
      {evaluation.options.map((option) => (
        <OptionCard
          key={option.index}
          option={option}
          evaluation={evaluation}
          colorIndex={option.index % 6}
        />
      ))}
    </div>
  );
}
