// bench:distributed's readings of the processes it starts: CPU time of a process and its children
// (Postgres runs a backend per connection), the load average, and with BENCH_PROFILE=1 what Redis
// and Postgres were asked (INFO commandstats, pg_stat_statements), to see where round trips go.
import { readdirSync, readFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { Redis } from 'ioredis';
import pg from 'pg';

function statFields(pid) {
  try {
    return readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
  } catch {
    return undefined; // gone meanwhile
  }
}

/**
 * CPU time (user + system, in ms) of a process, of its children that ended (the kernel adds them
 * to their parent once reaped) and of those still running: a Postgres server's backends included.
 */
export function treeCpuMs(pid) {
  const children = new Map();
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    const fields = statFields(name);
    if (!fields) continue;
    const parent = Number(fields[1]);
    children.set(parent, [...(children.get(parent) ?? []), Number(name)]);
  }
  const own = (id) => {
    const fields = statFields(id);
    return fields ? fields.slice(11, 15).reduce((sum, field) => sum + Number(field), 0) * 10 : 0;
  };
  let total = 0;
  const stack = [pid];
  while (stack.length > 0) {
    const id = stack.pop();
    total += own(id);
    stack.push(...(children.get(id) ?? []));
  }
  return total;
}

export const load = () =>
  loadavg()
    .map((value) => value.toFixed(2))
    .join(' ');

/** Postgres settings for BENCH_PROFILE: statement counts per query. */
export const profileSettings = [
  'shared_preload_libraries=pg_stat_statements',
  'pg_stat_statements.track=all',
];

/** Resets Redis's and Postgres's counters; `report()` prints what was asked since. */
export async function startCounting({ redisUrl, databaseUrl, jobs }) {
  const redis = new Redis(redisUrl);
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  await client.query('CREATE EXTENSION IF NOT EXISTS pg_stat_statements');
  await redis.config('RESETSTAT');
  await client.query('SELECT pg_stat_statements_reset()');
  return {
    async report() {
      const info = await redis.info('commandstats');
      const commands = [...info.matchAll(/^cmdstat_(\w+):calls=(\d+),usec=(\d+)/gm)]
        .map(([, name, calls, usec]) => ({ name, calls: Number(calls), usec: Number(usec) }))
        .sort((a, b) => b.calls - a.calls);
      const total = commands.reduce((sum, command) => sum + command.calls, 0);
      console.log(
        `  redis: ${(total / jobs).toFixed(0)} commands/job: ` +
          commands
            .slice(0, 10)
            .map((command) => `${command.name} ${(command.calls / jobs).toFixed(1)}`)
            .join(', '),
      );
      const { rows } = await client.query(
        `SELECT calls, round(total_exec_time) AS ms, left(regexp_replace(query, '\\s+', ' ', 'g'), 70) AS query
         FROM pg_stat_statements WHERE query NOT LIKE '%pg_stat_statements%' ORDER BY calls DESC LIMIT 10`,
      );
      const { rows: sums } = await client.query(
        "SELECT sum(calls) AS calls FROM pg_stat_statements WHERE query NOT LIKE '%pg_stat_statements%'",
      );
      const statements = Number(sums[0].calls);
      console.log(`  postgres: top statements, ${(statements / jobs).toFixed(0)} per job:`);
      for (const row of rows)
        console.log(
          `    ${(Number(row.calls) / jobs).toFixed(1).padStart(6)}/job ${String(row.ms).padStart(6)} ms  ${row.query}`,
        );
      redis.disconnect();
      await client.end();
    },
  };
}

/**
 * What the fakes were asked from now on, per job: LLM calls (streamed or not, by schema), searches,
 * page reads. The same jobs should ask the same in every configuration; a difference is work a
 * configuration adds (a retry, a call it makes twice).
 */
export function startWorldCount(world, jobs) {
  const marks = {
    llm: world.llm.requests.length,
    search: world.searxng.requests.length,
    web: world.web.requests.length,
  };
  return () => {
    const calls = world.llm.requests.slice(marks.llm);
    const perJob = (count) => (count / jobs).toFixed(2);
    const bySchema = new Map();
    for (const call of calls) {
      const name = call.schemaName ?? 'text';
      bySchema.set(name, (bySchema.get(name) ?? 0) + 1);
    }
    const streamed = calls.filter((call) => call.json?.stream === true).length;
    const promptKb =
      calls.reduce((sum, call) => sum + call.body.length, 0) / 1024 / Math.max(1, calls.length);
    const top = [...bySchema].sort((a, b) => b[1] - a[1]).slice(0, 8);
    console.log(
      `  calls/job: LLM ${perJob(calls.length)} (${perJob(streamed)} streamed, ${promptKb.toFixed(1)} KB a request), ` +
        `searches ${perJob(world.searxng.requests.length - marks.search)}, pages ${perJob(world.web.requests.length - marks.web)}; ` +
        top.map(([name, count]) => `${name} ${perJob(count)}`).join(', '),
    );
  };
}
