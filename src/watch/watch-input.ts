import * as z from 'zod';
import { BlockedUrlError, InputError } from '../core/errors/index.js';
import { assertUrlAllowed } from '../platform/http/network-guard.js';
import type { WatchMode, WatchNotify, WatchPatch, WatchSchedule } from './watch-record.js';
import { parseSchedule } from './watch-schedule.js';

const notifySchema = z
  .object({
    url: z.string().trim().min(1, 'must be the webhook URL'),
    secret: z.string().min(1, 'must not be empty (leave it out to send unsigned)').max(500).optional(),
    format: z.enum(['json', 'slack']).default('json'),
  })
  .strict();

const scheduleFields = {
  every: z.string().trim().min(1).max(40).optional(),
  cron: z.string().trim().min(1).max(200).optional(),
};

/** A new watch, as POST /v1/watches, the CLI and the MCP tool give it (snake_case, as the run API). */
export const watchCreateSchema = z
  .object({
    question: z.string().trim().min(1, 'must be a non-empty question').max(20_000),
    mode: z.enum(['search', 'research']).default('search'),
    name: z.string().trim().min(1).max(200).optional(),
    notify: notifySchema.optional(),
    notify_always: z.boolean().default(false),
    ...scheduleFields,
  })
  .strict();

/** PATCH /v1/watches/{id}: what may change (pause, resume, the schedule, the name, the webhook). */
export const watchPatchSchema = z
  .object({
    paused: z.boolean().optional(),
    name: z.string().trim().min(1).max(200).optional(),
    notify: notifySchema.nullable().optional(),
    notify_always: z.boolean().optional(),
    ...scheduleFields,
  })
  .strict();

export interface WatchInputContext {
  minIntervalMs: number;
  /** The network guard's setting: a notify URL on a private network is refused without it. */
  allowPrivateNetwork: boolean;
  /** How the schedule's fields are called where the input came from (`--every` on the CLI). */
  names?: { every: string; cron: string; notify: string };
}

export interface WatchInput {
  question: string;
  mode: WatchMode;
  name: string;
  schedule: WatchSchedule;
  notify: WatchNotify | null;
  notifyAlways: boolean;
}

/** A new watch's fields checked: an InputError names the field and says what it takes. */
export async function parseWatchInput(body: unknown, context: WatchInputContext): Promise<WatchInput> {
  const parsed = watchCreateSchema.safeParse(body);
  if (!parsed.success) throw fieldError(parsed.error, watchCreateSchema.shape);
  const { question, mode, name, notify, notify_always: notifyAlways, every, cron } = parsed.data;
  const schedule = parseSchedule(
    { every, cron },
    { minIntervalMs: context.minIntervalMs, param: context.names },
  );
  return {
    question,
    mode,
    name: name ?? question.slice(0, 80),
    schedule,
    notify: notify ? await checkedNotify(notify, context) : null,
    notifyAlways,
  };
}

/** A PATCH's fields checked and turned into the store's patch. */
export async function parseWatchPatch(body: unknown, context: WatchInputContext): Promise<WatchPatch> {
  const parsed = watchPatchSchema.safeParse(body);
  if (!parsed.success) throw fieldError(parsed.error, watchPatchSchema.shape);
  const { paused, name, notify, notify_always: notifyAlways, every, cron } = parsed.data;
  const patch: WatchPatch = {};
  if (paused !== undefined) patch.paused = paused;
  if (name !== undefined) patch.name = name;
  if (notifyAlways !== undefined) patch.notifyAlways = notifyAlways;
  if (notify !== undefined) patch.notify = notify === null ? null : await checkedNotify(notify, context);
  if (every !== undefined || cron !== undefined)
    patch.schedule = parseSchedule(
      { every, cron },
      { minIntervalMs: context.minIntervalMs, param: context.names },
    );
  return patch;
}

async function checkedNotify(
  notify: z.infer<typeof notifySchema>,
  context: WatchInputContext,
): Promise<WatchNotify> {
  const param = context.names?.notify ?? 'notify.url';
  try {
    // The same guard as every outgoing request: a private address is refused now, not at the first
    // change. A name that does not resolve now may later: the guard judges it again at each post.
    await assertUrlAllowed(notify.url, { allowPrivateNetwork: context.allowPrivateNetwork });
  } catch (error) {
    if (BlockedUrlError.isInstance(error))
      throw new InputError(`${param}: ${error.message}`, { param, code: 'url_blocked' });
  }
  return { url: notify.url, format: notify.format, ...(notify.secret ? { secret: notify.secret } : {}) };
}

function fieldError(error: z.ZodError, shape: Record<string, unknown>): InputError {
  const issue = error.issues[0]!;
  if (issue.code === 'unrecognized_keys') {
    const field = issue.keys[0]!;
    return new InputError(`unknown field '${field}' (the fields are: ${Object.keys(shape).join(', ')})`, {
      param: field,
      code: 'unknown_parameter',
    });
  }
  const param = issue.path.join('.');
  return new InputError(`${param || 'body'}: ${issue.message}`, {
    param: param || undefined,
    code: 'invalid_value',
  });
}
