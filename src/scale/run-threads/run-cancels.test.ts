import { MessageChannel } from 'node:worker_threads';
import { afterEach, describe, expect, it } from 'vitest';
import { createRunCancels, type RunCancels } from './run-cancels.js';
import type { RunCancel } from './run-thread-protocol.js';
import { toThreadError } from './thread-errors.js';

let open: Array<{ cancels: RunCancels; channel: MessageChannel }> = [];
afterEach(() => {
  for (const { cancels, channel } of open) {
    cancels.close();
    channel.port1.close();
  }
  open = [];
});

function setUp() {
  const channel = new MessageChannel();
  const cancels = createRunCancels(channel.port2);
  open.push({ cancels, channel });
  const post = (cancel: RunCancel) => channel.port1.postMessage(cancel);
  return { cancels, post };
}

describe("a run thread's cancellations", () => {
  it('drain applies one already posted at once, with its reason, without a turn of the event loop', () => {
    const { cancels, post } = setUp();
    const first = cancels.start(1);
    const second = cancels.start(2);
    post({ id: 2, reason: toThreadError(new Error('the client left')) });
    expect(second.signal.aborted).toBe(false);
    cancels.drain();
    expect(second.signal.aborted).toBe(true);
    expect((second.signal.reason as Error).message).toBe('the client left');
    expect(first.signal.aborted).toBe(false);
  });

  it('without a drain, applies them as the messages come', async () => {
    const { cancels, post } = setUp();
    const controller = cancels.start(7);
    post({ id: 7 });
    await new Promise<void>((resolve) => controller.signal.addEventListener('abort', () => resolve()));
    expect(controller.signal.aborted).toBe(true);
  });

  it('one read before its run began cancels the run when it begins', () => {
    const { cancels, post } = setUp();
    cancels.start(3);
    post({ id: 5, reason: toThreadError(new Error('gone')) });
    cancels.drain();
    expect(cancels.waiting).toBe(1);
    const controller = cancels.start(5);
    expect(controller.signal.aborted).toBe(true);
    expect((controller.signal.reason as Error).message).toBe('gone');
    expect(cancels.waiting).toBe(0);
  });

  it('one for a run already over is dropped, not kept', () => {
    const { cancels, post } = setUp();
    cancels.start(1);
    cancels.end(1);
    cancels.start(2);
    post({ id: 1 });
    cancels.drain();
    expect(cancels.waiting).toBe(0);
  });

  it('abortAll cancels every run going', () => {
    const { cancels } = setUp();
    const runs = [cancels.start(1), cancels.start(2)];
    cancels.end(1);
    cancels.abortAll();
    expect(runs.map((run) => run.signal.aborted)).toEqual([false, true]);
  });
});
