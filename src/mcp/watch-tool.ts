import * as z from 'zod';
import { InputError } from '../core/errors/index.js';
import type { WatchRun } from '../watch/watch-record.js';
import { describeSchedule } from '../watch/watch-schedule.js';
import { watchObject, watchRunObject } from '../watch/watch-view.js';
import { defineMcpTool } from './mcp-tool.js';

/**
 * `watch`: add, list and show the watches of the session's key (a question re-run on a schedule,
 * told claim by claim what changed). Offered where watches are kept (the HTTP server).
 */
export const watchTool = defineMcpTool({
  name: 'watch',
  title: 'Watch a question',
  description:
    'Keeps a question up to date: it is re-run on a schedule and each check says, claim by claim with ' +
    'sources, what changed (a number, a date, a name), what is new and what is gone. action "add" with ' +
    'question and every ("6h", "1d", "1w") or cron ("0 8 * * 1"), optionally mode "research" and a notify ' +
    'webhook URL; "list" the watches; "show" one (id) with its latest checks and their changes.',
  inputSchema: {
    action: z.enum(['add', 'list', 'show']).describe('add a watch, list them, or show one with its checks'),
    question: z.string().max(20_000).optional().describe('add: the question to keep up to date'),
    every: z.string().max(40).optional().describe('add: how often, e.g. "30m", "6h", "1d", "1w"'),
    cron: z.string().max(200).optional().describe('add: a cron pattern instead, e.g. "0 8 * * 1"'),
    mode: z
      .enum(['search', 'research'])
      .optional()
      .describe('add: a deep search answer (default) or a research report'),
    name: z.string().max(200).optional().describe('add: a name to tell it by'),
    notify: z.string().max(2000).optional().describe('add: a webhook URL to POST the changes to'),
    id: z.string().max(200).optional().describe('show: the watch id'),
  },
  annotations: { readOnlyHint: false, openWorldHint: true, idempotentHint: false },
  isEnabled: (_runtime, entry) => entry.watches !== undefined,
  async run(input, { watches, owner }) {
    if (!watches) throw new InputError('watches are not kept here: use the HTTP server (deepsearch serve)');
    if (input.action === 'add') {
      const watch = await watches.add(
        {
          question: input.question ?? '',
          ...(input.mode ? { mode: input.mode } : {}),
          ...(input.every !== undefined ? { every: input.every } : {}),
          ...(input.cron !== undefined ? { cron: input.cron } : {}),
          ...(input.name !== undefined ? { name: input.name } : {}),
          ...(input.notify !== undefined ? { notify: { url: input.notify } } : {}),
        },
        owner,
      );
      return {
        text: `Watching "${watch.question}" ${describeSchedule(watch.schedule)} as ${watch.id}; the first check is the baseline.`,
        structured: { ...watchObject(watch) },
      };
    }
    if (input.action === 'list') {
      const listed = await watches.list(owner);
      const lines = listed.map(
        (watch) =>
          `${watch.id}  ${describeSchedule(watch.schedule)}${watch.paused ? ' (paused)' : ''}  ${watch.name}`,
      );
      return {
        text: lines.length > 0 ? lines.join('\n') : 'No watches yet.',
        structured: { watches: listed.map(watchObject) },
      };
    }
    if (!input.id) throw new InputError('show needs the watch id (list gives them)', { param: 'id' });
    const { watch, runs } = await watches.show(input.id, owner, 5);
    return {
      text: [`${watch.name} (${watch.id}): ${watch.question}`, ...runs.map(runText)].join('\n\n'),
      structured: { ...watchObject(watch), runs: runs.map(watchRunObject) },
    };
  },
});

function runText(run: WatchRun): string {
  const lines = [`${new Date(run.startedAt).toISOString()} ${run.status}: ${run.summary}`];
  for (const change of run.changes) {
    if (change.kind === 'unchanged') continue;
    if (change.kind === 'changed')
      lines.push(`- changed: "${change.before?.text}" → "${change.after?.text}"`);
    else if (change.kind === 'new') lines.push(`- new: "${change.after?.text}"`);
    else lines.push(`- removed: "${change.before?.text}"`);
    for (const source of [...(change.before?.sources ?? []), ...(change.after?.sources ?? [])])
      lines.push(`  ${source.url}: "${source.quote}"`);
  }
  return lines.join('\n');
}
