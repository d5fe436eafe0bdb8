import type { AgentEvent } from '../events/agent-events.js';

/**
 * An event's JSON, once. The recorder serialises each event to redact it; when redaction changed
 * nothing, that text is what the store writes, instead of parsing it back into a copy and
 * serialising the copy again (two of a busy server's costlier steps per event).
 */
const known = new WeakMap<AgentEvent, string>();

/** The event as the store keeps it: redacted, and its JSON remembered for the store. */
export function redactedEvent(event: AgentEvent, redact: (text: string) => string): AgentEvent {
  const text = JSON.stringify(event);
  const clean = redact(text);
  // A copy when redaction changed it; else the event itself, whose JSON as of now is what is stored.
  const stored = clean === text ? event : (JSON.parse(clean) as AgentEvent);
  known.set(stored, clean);
  return stored;
}

/** The JSON of an event to store: the one the recorder made, or a fresh one. */
export function eventJson(event: AgentEvent): string {
  return known.get(event) ?? JSON.stringify(event);
}

/**
 * An event that came with the JSON the recorder made of it (a run thread's, written by the
 * server's thread): the store writes that text instead of serialising the copy again.
 */
export function withEventJson(event: AgentEvent, json: string): AgentEvent {
  known.set(event, json);
  return event;
}
