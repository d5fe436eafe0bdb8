import type { ToolTaskHandler } from '@modelcontextprotocol/sdk/experimental/tasks/interfaces.js';
import type { ServerNotification } from '@modelcontextprotocol/sdk/types.js';
import type * as z from 'zod';
import { linkSignals } from '../core/link-signals.js';
import type { AgentEventListener } from '../events/agent-events.js';
import { callMcpTool } from './call-mcp-tool.js';
import type { McpServerOptions } from './create-mcp-server.js';
import type { McpTaskStore } from './mcp-task-store.js';
import type { McpTool } from './mcp-tool.js';
import { progressMessage } from './progress-message.js';

/** How long a task is kept when the client names no ttl, and at most. */
const defaultTtlMs = 60 * 60_000;
const maxTtlMs = 24 * 60 * 60_000;

/**
 * The ttl a task gets. The store forgets a task ttl after its creation, running or not (as the spec
 * allows), so it is never shorter than the run may take (its time budget) and an hour to read the
 * result; a client's longer wish is kept, up to a day.
 */
function taskTtl(requested: number | undefined, input: unknown, server: McpServerOptions): number {
  const seconds =
    (input as { max_seconds?: number }).max_seconds ?? server.runtime.config.budget.maxTimeSeconds;
  const least = seconds * 1000 + defaultTtlMs;
  return Math.min(Math.max(requested ?? defaultTtlMs, least), Math.max(maxTtlMs, least));
}

/**
 * A long tool (deep_search, research) as an MCP task: `tools/call` with `task` returns a task id at
 * once and the run goes on; the client polls `tasks/get` (its status message is the last progress
 * line), waits on `tasks/result`, or cancels with `tasks/cancel`, which stops the run. Progress
 * notifications keep the call's progress token, sent outside the call's response (on HTTP, the
 * session's GET stream). A plain call of the same tool (a client without tasks) is a task the SDK
 * polls itself and answers when done: the call's own cancellation and progress apply as before.
 */
export function createToolTaskHandler(options: {
  tool: McpTool;
  server: McpServerOptions;
  store: McpTaskStore;
  /** Sends a notification not tied to a request (the call's response is already written). */
  notify: (notification: ServerNotification) => Promise<void>;
}): ToolTaskHandler<z.ZodRawShape> {
  const { store } = options;
  return {
    async createTask(input, extra) {
      const ttl = taskTtl(extra.taskRequestedTtl ?? undefined, input, options.server);
      const task = await extra.taskStore.createTask({ ttl });
      const requested = store.wasRequested(task.taskId);
      const stop = new AbortController();
      const scope = options.server.callScope?.(extra.requestId);
      // A plain call stops with its request; a task only by tasks/cancel, the session's end or shutdown.
      const link = linkSignals([stop.signal, scope?.signal, requested ? undefined : extra.signal]);
      const forget = store.onCancelled(task.taskId, () =>
        stop.abort(new Error('the client cancelled the task')),
      );
      const progressToken = extra._meta?.progressToken;
      let progress = 0;
      const onEvent: AgentEventListener = (event) => {
        const line = progressMessage(event);
        if (!line) return;
        const message = options.server.runtime.redact(line);
        if (requested) void store.updateTaskStatus(task.taskId, 'working', message).catch(() => undefined);
        if (progressToken === undefined) return;
        // Progress must grow with each notification; steps repeat, so this counts the messages.
        progress += 1;
        const notification = {
          method: 'notifications/progress' as const,
          params: { progressToken, progress, message },
        };
        (requested ? options.notify(notification) : extra.sendNotification(notification)).catch(
          () => undefined, // the client left: cancellation or the session's end stops the run
        );
      };
      void (async () => {
        try {
          const result = await callMcpTool({
            tool: options.tool,
            input,
            server: options.server,
            signal: link.signal,
            onEvent,
          });
          forget();
          if (link.signal.aborted) {
            const current = await store.getTask(task.taskId);
            if (current && current.status === 'working') {
              await extra.taskStore.updateTaskStatus(
                task.taskId,
                'cancelled',
                'stopped: the call was cancelled',
              );
            }
            return;
          }
          await extra.taskStore.storeTaskResult(task.taskId, result.isError ? 'failed' : 'completed', result);
        } catch {
          // The task was cancelled or expired meanwhile: nobody is waiting for this result.
        } finally {
          scope?.end();
          link.unlink();
        }
      })();
      return { task };
    },
    getTask: (_input, extra) => extra.taskStore.getTask(extra.taskId),
    getTaskResult: async (_input, extra) =>
      (await extra.taskStore.getTaskResult(extra.taskId)) as Awaited<
        ReturnType<ToolTaskHandler<z.ZodRawShape>['getTaskResult']>
      >,
  };
}
