import assert from 'node:assert/strict';
import { test } from 'node:test';
import { plannerInputError } from '../../../renderer/src/screens/planner/input-errors.js';

test("the planner's refusal of the form names the fields by their labels", () => {
  assert.equal(
    plannerInputError(
      'Bad input for planner.evaluate: data.keepInternal: must be 0 or more bytes; workload.bursts.1.name: Too small: expected string to have >=1 characters',
    ),
    'Check “Must stay internal” and the name of burst 2: a figure is missing or below zero, or a name is empty. The comparison updates once it is fixed.',
  );
  assert.doesNotMatch(
    plannerInputError('Bad input for planner.evaluate: options.0.external.device: Required'),
    /options\.0|Required/,
  );
  assert.equal(plannerInputError('The catalogue is damaged.'), 'The catalogue is damaged.');
});
