/**
 * The app's views, in sidebar order. A feature adds its view here and nowhere else.
 */
import type { ReactNode } from 'react';
import type { AppAbout } from '../../app/contract/app.js';
import type { PlumbClient } from './client.js';
import { ResultsScreen } from './screens/bench/ResultsScreen.js';
import { TestScreen } from './screens/bench/TestScreen.js';
import { PlannerScreen } from './screens/planner/PlannerScreen.js';
import { SpaceScreen } from './screens/space/SpaceScreen.js';
import { VolumeScreen } from './screens/volumes/VolumeScreen.js';

export interface ViewProps {
  client: PlumbClient;
  about: AppAbout | null;
}

export interface ViewDefinition {
  id: string;
  title: string;
  /** One line under the title in the sidebar. */
  hint: string;
  /** Kept mounted while other sections show, so its work survives switching sections. */
  keepAlive: boolean;
  render(props: ViewProps): ReactNode;
}

export const views: ViewDefinition[] = [
  {
    id: 'volume',
    keepAlive: true,
    title: 'Volumes',
    hint: 'Your disks: test one or free space',
    render: (props) => <VolumeScreen {...props} />,
  },
  {
    id: 'bench',
    keepAlive: true,
    title: 'Test a disk',
    hint: 'Uncached speed, cache cliffs, the grid',
    render: (props) => <TestScreen {...props} />,
  },
  {
    id: 'results',
    keepAlive: false,
    title: 'Results',
    hint: 'Verdicts, history, compare',
    render: (props) => <ResultsScreen client={props.client} />,
  },
  {
    id: 'space',
    keepAlive: true,
    title: 'Reclaim space',
    hint: 'Copies into clones, sparse files',
    render: (props) => <SpaceScreen {...props} />,
  },
  {
    id: 'planner',
    keepAlive: true,
    title: 'Planner',
    hint: 'Bigger internal SSD or external?',
    render: (props) => <PlannerScreen {...props} />,
  },
];
