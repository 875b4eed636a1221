/** Step 2: the plans to choose from (and reading a folder), each with its size and time. */
import type { Plan } from '../../../../../app/contract/plan.js';
import { formatBytes } from '../../../../../app/common/format.js';
import { planIs } from '../../../../../app/common/plan-kinds.js';
import { estimatedTime, type PlanEstimate, type RateBasis } from '../estimates.js';
import { planStory, readFolderStory } from '../../../ui/plan-catalogue.js';
import type { GridSettings } from '../../../ui/result/presets-grid.js';
import { GridOptions } from './GridOptions.js';

/** The test choice that reads a folder instead of running a plan. */
export const readFolderChoice = 'read-folder';

export function PlanChoices({
  plans,
  chosenPlan,
  readFolder,
  onChoose,
  estimateFor,
  rates,
  showBasis,
  grid,
  onGrid,
  scaled,
  scale,
  gridProblem,
}: {
  plans: Plan[];
  /** The chosen plan's name, when a plan is chosen. */
  chosenPlan: string | undefined;
  readFolder: boolean;
  onChoose: (name: string) => void;
  estimateFor: (plan: Plan) => PlanEstimate | null;
  rates: RateBasis | null;
  /** Whether to say which rates the times use. */
  showBasis: boolean;
  /** The grid's size and count, set when the queue-depth grid is chosen. */
  grid: GridSettings;
  onGrid: (next: GridSettings) => void;
  scaled: boolean;
  /** The scale chosen: each card says what the plan does at it. */
  scale: number;
  gridProblem: string | null;
}) {
  const chosen = plans.find((p) => p.name === chosenPlan);
  return (
    <>
      <div className="choice-grid plan-grid" role="radiogroup" aria-label="Test">
        {plans.map((candidate) => {
          const story = planStory(candidate, scale);
          const candidateEstimate = estimateFor(candidate);
          return (
            <label key={candidate.name} className="choice plan-choice">
              <input
                type="radio"
                name="plan"
                className="visually-hidden"
                value={candidate.name}
                checked={candidate.name === chosenPlan}
                onChange={() => onChoose(candidate.name)}
              />
              <span className="choice-body">
                <span className="choice-title">{story.title}</span>
                <span className="choice-text">{story.reveals}</span>
                <span className="choice-detail">{story.does}</span>
                <span
                  className={`choice-estimate ${candidateEstimate ? '' : 'choice-estimate-pending'}`}
                >
                  {candidateEstimate && rates
                    ? `${formatBytes(candidateEstimate.writeBytes)} written · ${estimatedTime(candidateEstimate, 'card')}`
                    : 'Choose where to test for time and size'}
                </span>
              </span>
            </label>
          );
        })}
        <label className="choice plan-choice">
          <input
            type="radio"
            name="plan"
            className="visually-hidden"
            value={readFolderChoice}
            checked={readFolder}
            onChange={() => onChoose(readFolderChoice)}
          />
          <span className="choice-body">
            <span className="choice-title">{readFolderStory.title}</span>
            <span className="choice-text">{readFolderStory.reveals}</span>
            <span className="choice-detail">{readFolderStory.does}</span>
            <span className="choice-estimate">Nothing written · as long as the folder takes</span>
          </span>
        </label>
      </div>
      {planIs(chosen, 'presets') && !readFolder ? (
        <GridOptions settings={grid} onSettings={onGrid} scaled={scaled} problem={gridProblem} />
      ) : null}
      {rates && showBasis ? (
        <p className="estimate-basis muted">
          {rates.guess
            ? 'Times are a first guess: nothing has run on this disk yet. They use'
            : 'Times use'}{' '}
          {formatBytes(rates.writeRate)}/s writing and {formatBytes(rates.readRate)}/s reading,{' '}
          {rates.source}
          {rates.guess ? '; the time left improves from the measured pace as the run goes.' : '.'}
        </p>
      ) : null}
    </>
  );
}
