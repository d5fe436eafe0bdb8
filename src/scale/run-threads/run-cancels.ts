import { type MessagePort, receiveMessageOnPort } from 'node:worker_threads';
import type { RunCancel } from './run-thread-protocol.js';
import { fromThreadError } from './thread-errors.js';

export interface RunCancels {
  /** A run begins: its controller, aborted at once when its cancellation came before it. */
  start(id: number): AbortController;
  end(id: number): void;
  /** Applies the cancellations already posted to the thread, now, without a turn of the event loop. */
  drain(): void;
  abortAll(): void;
  /** Cancellations kept for runs not begun yet (their `run` message is still queued). */
  readonly waiting: number;
  close(): void;
}

/**
 * A run thread's cancellations (a client that left, a server stopping), which the server's thread
 * posts on a port of their own: they are read as messages come, and also at once before each
 * provider request (drain, settleAbortsBeforeRequests), so that request sees a cancellation
 * already posted without waiting for the event loop to reach it.
 *
 * A cancellation may be read before its run's `run` message, which comes on the thread's other
 * port: it is kept until the run begins. The server's thread hands a thread its runs in the order
 * of their ids, so a cancellation for an id no greater than the last begun is for a run already
 * over, and is dropped.
 */
export function createRunCancels(port: MessagePort): RunCancels {
  const running = new Map<number, AbortController>();
  const early = new Map<number, Error | undefined>();
  let lastBegun = Number.NEGATIVE_INFINITY;
  const apply = ({ id, reason }: RunCancel) => {
    const error = reason ? fromThreadError(reason) : undefined;
    const controller = running.get(id);
    if (controller) controller.abort(error);
    else if (id > lastBegun) early.set(id, error);
  };
  port.on('message', apply);
  return {
    start(id) {
      lastBegun = Math.max(lastBegun, id);
      const controller = new AbortController();
      running.set(id, controller);
      if (early.has(id)) {
        controller.abort(early.get(id));
        early.delete(id);
      }
      return controller;
    },
    end(id) {
      running.delete(id);
    },
    drain() {
      for (let received = receiveMessageOnPort(port); received; received = receiveMessageOnPort(port))
        apply(received.message as RunCancel);
    },
    abortAll() {
      for (const controller of running.values()) controller.abort();
    },
    get waiting() {
      return early.size;
    },
    close() {
      port.close();
    },
  };
}
