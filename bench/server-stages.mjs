// Where a stream's overhead goes, stage by stage, from when the fake LLM saw each call: the time
// between a stream's request (or an LLM reply) and the run's next LLM call (or the stream's end)
// is the server's work there, plus its wait for a core, a search slot or a parsing process.

/** What the server does between two of the bench's LLM calls, by the schema of the call after. */
const stageNames = [
  'request → first LLM call',
  'search decision → query rewrite',
  'rewrite → next step (search)',
  'visit decision → answer (read)',
  'answer → criteria',
  'criteria → evaluation',
  'evaluation → end of stream',
];

/**
 * The stages' p10, p50 and p90 over one burst's streams, as lines (a p50 close to the p90 with a
 * lower p10: most streams waited together, for a thread busy with every run's same step);
 * `streams` maps a question id to its start and end (performance.now() of this process), `calls`
 * are the LLM calls in arrival order.
 * A stream whose calls do not follow the bench's script (a retry, a re-ask) is left out.
 */
export function stageLines(streams, calls, latencyMs, percentile) {
  const byId = new Map();
  for (const call of calls) {
    const list = byId.get(call.id);
    if (list) list.push(call.at);
    else if (streams.has(call.id)) byId.set(call.id, [call.at]);
  }
  const gaps = stageNames.map(() => []);
  for (const [id, times] of byId) {
    if (times.length !== stageNames.length - 1) continue;
    const { started, ended } = streams.get(id);
    gaps[0].push(times[0] - started);
    for (let index = 1; index < times.length; index++)
      gaps[index].push(times[index] - times[index - 1] - latencyMs);
    gaps.at(-1).push(ended - times.at(-1) - latencyMs);
  }
  if (gaps[0].length === 0) return [];
  const ms = (values, p) => `${Math.round(percentile(values, p))} ms`.padStart(8);
  return stageNames.map((name, index) =>
    [`  ${name.padEnd(32)}`, ms(gaps[index], 10), ms(gaps[index], 50), ms(gaps[index], 90)].join(' '),
  );
}
