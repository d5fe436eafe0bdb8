import { describe, expect, it } from 'vitest';
import { scriptedStep } from '../../src/testing/scripted-steps.js';
import { eventsOf, runAgent } from '../helpers/agent-harness.js';

const question = 'What is the combined population of the Nordic countries, in millions?';
const nordicUrl = 'https://stats.example/nordic';
const nordicPage = `<html><head><title>Nordic countries by population</title></head><body><article>
<h1>Nordic countries by population</h1>
<p>The table lists the population of each Nordic country in 2024, in millions.</p>
<table><thead><tr><th>Country</th><th>Population (millions)</th></tr></thead><tbody>
<tr><td>Sweden</td><td>10.6</td></tr><tr><td>Denmark</td><td>6.0</td></tr><tr><td>Finland</td><td>5.6</td></tr>
<tr><td>Norway</td><td>5.5</td></tr><tr><td>Iceland</td><td>0.4</td></tr>
</tbody></table>
<p>Sweden is the most populous Nordic country.</p>
</article></body></html>`;
const search = {
  'Nordic countries population': [
    {
      url: nordicUrl,
      title: 'Nordic countries by population',
      snippet: 'Population of each Nordic country.',
    },
  ],
};
const pages = { [nordicUrl]: nordicPage };

// Parses the table the page holds, as a model would: nothing retyped from the page.
const sumTable = `
const table = input.pages[0].tables[0];
const rows = table.split('\\n').slice(2).map((line) => line.split('|').slice(1, -1).map((cell) => cell.trim()));
const total = rows.reduce((sum, [, population]) => sum + Number(population), 0);
console.log('rows', rows.length);
return { total: Math.round(total * 10) / 10, largest: rows[0][0] };`;

const searchAndRead = [scriptedStep.search(['Nordic countries population']), scriptedStep.visit([nordicUrl])];

describe('the coding action in the loop', () => {
  it('searches, reads a table, sums it in the sandbox and answers with the computed value', async () => {
    const { result, events, llm } = await runAgent(question, {
      search,
      pages,
      steps: [
        ...searchAndRead,
        {
          ...scriptedStep.coding(sumTable, 'Sum of the populations in the table'),
          expect: { schemaName: 'agent_action', promptIncludes: ['<action-coding>', 'Sweden 10.6'] },
        },
        {
          ...scriptedStep.answer('The Nordic countries have about 28.1 million people in total[^1].', [
            {
              url: nordicUrl,
              quote: 'The table lists the population of each Nordic country in 2024, in millions.',
            },
          ]),
          // The next prompt carries the computed result as knowledge and the diary line.
          expect: {
            schemaName: 'agent_action',
            promptIncludes: [
              'Computed: Sum of the populations in the table',
              '"total":28.1',
              'ran code to compute',
            ],
          },
        },
        scriptedStep.criteria(),
        scriptedStep.evaluation('definitive', true),
      ],
    });
    llm.assertConsumed();
    const [coding] = eventsOf(events, 'coding');
    expect(coding).toMatchObject({
      step: 3,
      purpose: 'Sum of the populations in the table',
      code: sumTable,
      ok: true,
      output: '{"total":28.1,"largest":"Sweden"}',
      logs: ['rows 5'],
    });
    expect(result.answer).toContain('28.1 million');
    expect(result.references.map((reference) => reference.url)).toEqual([nordicUrl]);
    expect(result.origin).toBe('evaluated');
    expect(result.computations).toEqual([
      {
        step: 3,
        purpose: 'Sum of the populations in the table',
        code: sumTable,
        result: '{"total":28.1,"largest":"Sweden"}',
      },
    ]);
    expect(result.warnings).toEqual([]);
  });

  it('turns failing and hostile code into diary notes and warnings, and the run goes on', async () => {
    const { result, events, llm } = await runAgent(question, {
      search,
      pages,
      config: { sandbox: { timeoutSeconds: 1 } },
      steps: [
        ...searchAndRead,
        scriptedStep.coding('while (true) {}', 'Loop forever'),
        {
          ...scriptedStep.coding('return process.env', 'Read the environment'),
          expect: { schemaName: 'agent_action', promptIncludes: 'failed (timeout)' },
        },
        {
          ...scriptedStep.coding(
            "const fs = await import('fs'); return fs.readFileSync('/etc/passwd', 'utf8')",
          ),
          expect: { schemaName: 'agent_action', promptIncludes: 'process is not defined' },
        },
        {
          ...scriptedStep.coding(sumTable, 'Sum of the populations in the table'),
          expect: { schemaName: 'agent_action', promptIncludes: '<action-coding>' },
        },
        scriptedStep.answer('The Nordic countries have about 28.1 million people in total[^1].', [
          {
            url: nordicUrl,
            quote: 'The table lists the population of each Nordic country in 2024, in millions.',
          },
        ]),
        scriptedStep.criteria(),
        scriptedStep.evaluation('definitive', true),
      ],
    });
    llm.assertConsumed();
    const outcomes = eventsOf(events, 'coding').map((event) => (event.ok ? 'ok' : event.error?.kind));
    expect(outcomes).toEqual(['timeout', 'runtime', 'runtime', 'ok']);
    expect(result.warnings).toHaveLength(3);
    expect(result.warnings[0]).toMatch(/"Loop forever" failed \(timeout\)/);
    expect(result.warnings.join('\n')).not.toMatch(/root:/);
    expect(result.computations.map((computation) => computation.result)).toEqual([
      '{"total":28.1,"largest":"Sweden"}',
    ]);
    expect(result.origin).toBe('evaluated');
  });

  it('is not offered before anything is gathered, nor when switched off', async () => {
    const off = await runAgent(question, {
      search,
      pages,
      config: { sandbox: { enabled: false } },
      steps: [
        {
          ...scriptedStep.search(['Nordic countries population']),
          expect: { schemaName: 'agent_action', promptExcludes: '<action-coding>' },
        },
        scriptedStep.visit([nordicUrl]),
        {
          ...scriptedStep.answer('About 28.1 million people[^1].', [
            {
              url: nordicUrl,
              quote: 'The table lists the population of each Nordic country in 2024, in millions.',
            },
          ]),
          expect: { schemaName: 'agent_action', promptExcludes: '<action-coding>' },
        },
        scriptedStep.criteria(),
        scriptedStep.evaluation('definitive', true),
      ],
    });
    off.llm.assertConsumed();
    expect(eventsOf(off.events, 'step-start').map((event) => event.allowed.includes('coding'))).toEqual([
      false,
      false,
      false,
    ]);
  });

  it('is not offered to a run given no code runner (the agent brings none of its own)', async () => {
    const { events, llm } = await runAgent(question, {
      search,
      pages,
      withoutCodeRunner: true,
      steps: [
        scriptedStep.search(['Nordic countries population']),
        scriptedStep.visit([nordicUrl]),
        {
          ...scriptedStep.answer('About 28.1 million people[^1].', [
            {
              url: nordicUrl,
              quote: 'The table lists the population of each Nordic country in 2024, in millions.',
            },
          ]),
          expect: { schemaName: 'agent_action', promptExcludes: '<action-coding>' },
        },
        scriptedStep.criteria(),
        scriptedStep.evaluation('definitive', true),
      ],
    });
    llm.assertConsumed();
    expect(eventsOf(events, 'step-start').map((event) => event.allowed.includes('coding'))).toEqual([
      false,
      false,
      false,
    ]);
  });
});
