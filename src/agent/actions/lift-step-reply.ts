import { type ActionName, actionNames } from './action-registry.js';

type JsonRecord = Record<string, unknown>;

/**
 * The step schema asks for `{think, step: {action, <action>: payload}}`. Models not held to the
 * schema (prompt mode, a server that ignores it, an older script) also write the flat shape
 * `{think, action, <action>: payload}`, put the payload's fields next to `action`, or name only
 * the payload object. This lifts those into the nested shape; the caller counts it as one repair.
 * It invents nothing: what it cannot place is left for validation to reject. The same object is
 * returned when nothing needed lifting.
 */
export function liftStepReply(value: unknown): unknown {
  // `[{...a step...}]`: the step alone.
  if (Array.isArray(value) && value.length === 1 && isRecord(value[0])) return liftStepReply(value[0]);
  if (!isRecord(value)) return value;
  const wrapped = unwrapped(value);
  if (wrapped !== value) return liftStepReply(wrapped);
  const { step, ...rest } = value;
  if (isRecord(step)) return liftNested(value, step, rest);
  // `"step": "search"`: the action's name where the object belongs.
  const flat = typeof step === 'string' && rest.action === undefined ? { ...rest, action: step } : rest;
  const action = actionOf(flat);
  // An action not known is nested too, so validation names the actions allowed.
  if (action === undefined && typeof flat.action !== 'string') return value;
  const { think, ...fields } = flat;
  const nested = action === undefined ? fields : liftPayload({ ...fields, action });
  return think === undefined ? { step: nested } : { think, step: nested };
}

/** `{"response": {...a step...}}` → the step; anything else as it is. */
function unwrapped(value: JsonRecord): JsonRecord {
  const keys = Object.keys(value);
  if (keys.length !== 1 || ['step', 'think', 'action', ...actionNames].includes(keys[0]!)) return value;
  const inner = value[keys[0]!];
  return isRecord(inner) && ('step' in inner || 'action' in inner) ? inner : value;
}

/** A nested step with its payload or `think` one level off: both put where they belong. */
function liftNested(value: JsonRecord, step: JsonRecord, rest: JsonRecord): JsonRecord {
  const { think, ...fields } = step;
  let inner = fields;
  let outer = rest;
  const action = actionOf(inner);
  if (action !== undefined && inner[action] === undefined && isRecord(rest[action])) {
    const { [action]: payload, ...others } = rest;
    inner = { ...inner, [action]: payload };
    outer = others;
  }
  const lifted = liftPayload(inner);
  if (lifted === inner && think === undefined && outer === rest) return value;
  const root = think !== undefined && outer.think === undefined ? { think, ...outer } : outer;
  return { ...root, step: lifted };
}

/** `{action, queries: [...]}` → `{action, search: {queries: [...]}}`; a complete step as it is. */
function liftPayload(step: JsonRecord): JsonRecord {
  const action = actionOf(step);
  if (action === undefined || isRecord(step[action]) || typeof step[action] === 'string') {
    return action === undefined || step.action === action ? step : { ...step, action };
  }
  const { action: _name, ...payload } = step;
  // Other actions' objects next to the payload's fields are not part of it.
  for (const name of actionNames) delete payload[name];
  return Object.keys(payload).length === 0 ? { ...step, action } : { action, [action]: payload };
}

/**
 * The action a reply chose: its `action` field matched to a known name whatever its case, else
 * the one action whose object it holds.
 */
function actionOf(record: JsonRecord): ActionName | undefined {
  if (typeof record.action === 'string') {
    const wanted = normalise(record.action);
    return actionNames.find((name) => normalise(name) === wanted);
  }
  if (record.action !== undefined) return undefined;
  const present = actionNames.filter((name) => isRecord(record[name]));
  return present.length === 1 ? present[0] : undefined;
}

const normalise = (text: string) => text.trim().toLowerCase();

function isRecord(value: unknown): value is JsonRecord {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
