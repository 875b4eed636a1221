/** A planner scenario as a report: the situation, the recommendation, the options, the chart. */
import type { Scenario } from '../../../app/contract/planner.js';
import type { ReportModel } from '../../../app/contract/report.js';
import { CrossoverChart } from '../ui/planner/CrossoverChart.js';
import { formatSize } from '../../../app/common/format.js';
import { OptionCards } from '../ui/planner/OptionCards.js';
import { Recommendation, SourcesList } from '../ui/planner/Recommendation.js';
import { hostKinds, ports } from '../ui/planner/host.js';
import { ReportCover, type Fact } from './ReportCover.js';

function perYear(bytes: number): string {
  return bytes > 0 ? `, growing ${formatSize(bytes)} a year` : '';
}

function scenarioFacts(scenario: Scenario): Fact[] {
  const host = hostKinds.find((k) => k.value === scenario.host.kind)?.label ?? scenario.host.kind;
  const port = ports.find((p) => p.value === scenario.host.port)?.label ?? scenario.host.port;
  const { data, workload } = scenario;
  const bursts = workload.bursts.map(
    (b) =>
      `${b.name} (${formatSize(b.size)}${b.repeat > 1 ? ` × ${b.repeat}, ${b.gapSeconds} s apart` : ''})`,
  );
  const daily = [
    workload.dailyWritesInternal > 0 ? `${formatSize(workload.dailyWritesInternal)} internal` : '',
    workload.dailyWritesMovable > 0
      ? `${formatSize(workload.dailyWritesMovable)} to data that can move out`
      : '',
  ].filter(Boolean);
  return [
    [
      'Computer',
      `${host}, fastest port ${port}${scenario.host.throughDock ? ', through a dock' : ''}`,
    ],
    ['Stays internal', `${formatSize(data.keepInternal)}${perYear(data.internalGrowthPerYear)}`],
    ['Could move out', `${formatSize(data.movable)}${perYear(data.movableGrowthPerYear)}`],
    ['Bursts', bursts.length ? bursts.join('; ') : 'none given'],
    ['Written daily', daily.length ? daily.join(', ') : 'nothing given'],
    [
      'Looking ahead',
      `${scenario.horizonYears} years, preferring ${scenario.prefer === 'cost' ? 'the lower cost' : 'speed'}`,
    ],
  ];
}

export function PlannerReport({ model }: { model: Extract<ReportModel, { kind: 'planner' }> }) {
  const { evaluation, scenario } = model;
  return (
    <>
      <ReportCover
        kind="Storage plan"
        title={scenario.name}
        lines={[`${evaluation.options.length} options compared`]}
        facts={scenarioFacts(scenario)}
      />
      <div className="plan-results">
        <Recommendation evaluation={evaluation} print />
        <h2 className="plan-section-title">The options side by side</h2>
        <OptionCards evaluation={evaluation} />
        <section className="report-keep">
          <h2 className="plan-section-title">Time against burst size</h2>
          <CrossoverChart evaluation={evaluation} print />
        </section>
        <SourcesList evaluation={evaluation} />
      </div>
    </>
  );
}
