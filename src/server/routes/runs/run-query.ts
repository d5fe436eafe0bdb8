import type { Context } from 'hono';
import { InputError } from '../../../core/errors/index.js';
import type { RunListQuery } from '../../../runs/run-store.js';
import type { ServerEnv } from '../../server-env.js';

/** The most runs one page of GET /v1/runs holds. */
const maxListLimit = 100;

/** GET /runs's query (limit, before, q, include_evaluations), checked, as the run store takes it. */
export function runListQuery(c: Context<ServerEnv>): RunListQuery {
  const limit = integerParam(c.req.query('limit'), 'limit', 20);
  if (limit < 1 || limit > maxListLimit)
    throw new InputError(`limit must be between 1 and ${maxListLimit}`, {
      param: 'limit',
      code: 'invalid_value',
    });
  const before = c.req.query('before');
  const q = c.req.query('q');
  if (q?.includes('\0')) {
    throw new InputError('q must not contain a NUL character', { param: 'q', code: 'invalid_value' });
  }
  return {
    owner: c.var.owner,
    limit,
    q: q || undefined,
    before: before === undefined ? undefined : integerParam(before, 'before', 0) * 1000,
    // `deepsearch eval` records a run per question: the history shows them only when asked.
    withoutEvaluations: !booleanParam(c.req.query('include_evaluations'), 'include_evaluations'),
  };
}

function booleanParam(value: string | undefined, name: string): boolean {
  if (value === undefined || value === 'false') return false;
  if (value === 'true') return true;
  throw new InputError(`${name} must be true or false`, { param: name, code: 'invalid_value' });
}

/** Last-Event-ID (a reconnecting EventSource sends it) or ?after=: events after this seq. */
export function afterSeq(c: Context<ServerEnv>): number {
  const header = c.req.header('last-event-id');
  const raw = header ?? c.req.query('after');
  return raw === undefined || raw === ''
    ? 0
    : integerParam(raw, header !== undefined ? 'Last-Event-ID' : 'after', 0);
}

function integerParam(raw: string | undefined, name: string, fallback: number): number {
  if (raw === undefined) return fallback;
  if (!/^\d{1,15}$/.test(raw.trim()))
    throw new InputError(`${name} must be a whole number (got "${raw.slice(0, 40)}")`, {
      param: name,
      code: 'invalid_value',
    });
  return Number(raw.trim());
}
