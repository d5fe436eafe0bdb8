import { randomUUID } from 'node:crypto';
import type { AgentEvent, AgentEventBody, AgentEventListener } from './agent-events.js';

export interface EventBusOptions {
  runId?: string;
  observers?: ReadonlyArray<AgentEventListener | undefined>;
  now?: () => number;
  /** The sequence number of the run's last event so far (a resumed run goes on from it). */
  lastSeq?: number;
}

/**
 * A run's events for any number of observers. Each event gets the run id, its sequence number
 * and the time. An observer that throws is detached and reported once (as a warning to the
 * others); it never ends the run.
 */
export class EventBus {
  readonly runId: string;
  /** Every warning of the run, once each, for the result. */
  readonly warnings: string[] = [];
  private readonly observers = new Set<AgentEventListener>();
  private readonly now: () => number;
  private seq = 0;

  constructor(options: EventBusOptions = {}) {
    this.runId = options.runId ?? randomUUID();
    this.now = options.now ?? Date.now;
    this.seq = options.lastSeq ?? 0;
    for (const observer of options.observers ?? []) if (observer) this.observers.add(observer);
  }

  /** Adds an observer; returns the function that removes it. */
  subscribe(observer: AgentEventListener): () => void {
    this.observers.add(observer);
    return () => this.observers.delete(observer);
  }

  emit(body: AgentEventBody): AgentEvent {
    const event = { ...body, runId: this.runId, seq: ++this.seq, at: this.now() } as AgentEvent;
    this.deliver(event);
    return event;
  }

  /**
   * Passes on a sub-run's event (a research section's) to this bus's observers with its own run
   * id and time but the next sequence number of this bus: one sequence over the task and all its
   * parts, so a store or an event stream can order them and a client resume after any of them.
   */
  forward(event: AgentEvent): void {
    this.deliver({ ...event, seq: ++this.seq });
  }

  private deliver(event: AgentEvent): void {
    if (event.type === 'warning' && !this.warnings.includes(event.message)) this.warnings.push(event.message);
    const failed: Array<{ observer: AgentEventListener; error: unknown }> = [];
    for (const observer of this.observers) {
      try {
        observer(event);
      } catch (error) {
        failed.push({ observer, error });
      }
    }
    for (const { observer, error } of failed) {
      this.observers.delete(observer);
      const message = error instanceof Error ? error.message : String(error);
      this.emit({
        type: 'warning',
        step: 'step' in event ? event.step : 0,
        message: `an event observer failed and was detached: ${message}`,
      });
    }
  }
}
