/**
 * `npm run bench:prompt`: prompt tokens (estimated, system + prompt) of steps 1–10 of a run whose
 * knowledge keeps growing (a search and a long page read every two steps), under the default
 * 32k context and the small-context profile (16k and 8k windows). No model or network: the
 * scripted LLM and fake search/reader. Then the size of the agent step's JSON schema, which a
 * server that constrains decoding also reads (sent as the response format, not in the prompt).
 */
import { type ActionName, actionNames, createActionSchema } from '../src/agent/actions/action-registry.js';
import { estimateTokens } from '../src/platform/llm-context/estimate-tokens.js';
import { toJsonSchema } from '../src/structured-output/to-json-schema.js';
import { toWireSchema } from '../src/structured-output/wire-schema.js';
import { eventsOf, runAgent } from '../test/helpers/agent-harness.js';
import { longContextWorld } from '../test/helpers/long-context-world.js';

const shownSteps = 10;
const windows = [32_768, 16_384, 8192];

async function promptTokensPerStep(contextTokens: number): Promise<number[]> {
  const world = longContextWorld(Math.ceil(shownSteps / 2));
  const { events } = await runAgent('What is the history of topic 3?', {
    ...world,
    steps: [...world.steps.slice(0, shownSteps - 1), ...finalStep()],
    config: { llm: { contextTokens }, budget: { maxSteps: shownSteps, maxTokens: 10_000_000 } },
  });
  return eventsOf(events, 'step-start').map((event) => event.promptTokens);
}

function finalStep() {
  return [
    {
      label: 'final answer',
      expect: { schemaName: 'final_answer' },
      object: { think: 'done', answer: { text: 'A long history.', references: [] } },
    },
  ];
}

const rows: string[][] = [
  ['context', ...Array.from({ length: shownSteps }, (_, index) => `step ${index + 1}`)],
];
for (const contextTokens of windows) {
  const tokens = await promptTokensPerStep(contextTokens);
  rows.push([String(contextTokens), ...tokens.map(String)]);
}
for (const row of rows) console.log(row.map((cell) => cell.padStart(8)).join(''));

const defaultLimits = { maxQueries: 5, maxUrls: 4, maxGapQuestions: 5, maxReferences: 10 };
const actionSets: ActionName[][] = [['search', 'reflect', 'answer'], [...actionNames]];
console.log('\nagent step JSON schema as sent (default limits)');
for (const allowed of actionSets) {
  const text = JSON.stringify(toWireSchema(toJsonSchema(createActionSchema(allowed, defaultLimits))));
  console.log(
    `${allowed.join(',').padEnd(36)}${String(text.length).padStart(6)} chars${String(estimateTokens(text)).padStart(6)} tokens`,
  );
}
