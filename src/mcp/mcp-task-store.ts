import type { CreateTaskOptions } from '@modelcontextprotocol/sdk/experimental/tasks/interfaces.js';
import { InMemoryTaskStore } from '@modelcontextprotocol/sdk/experimental/tasks/stores/in-memory.js';
import type { Request, RequestId, Task } from '@modelcontextprotocol/sdk/types.js';

/** How often a client is told to poll a task (`tasks/get`). */
const taskPollMs = 1000;
const plainCallPollMs = 100;

/**
 * The tasks of one MCP server (one stdio process, one HTTP session), in memory: a task lives as
 * long as its session. The SDK answers `tasks/cancel` by setting the status on the store itself,
 * so the store is where a cancellation is heard: `onCancelled` stops the task's run.
 */
export class McpTaskStore extends InMemoryTaskStore {
  private readonly cancelListeners = new Map<string, () => void>();
  /** Tasks made for a plain call (the SDK runs a task tool as a task and waits for it). */
  private readonly plainCalls = new Set<string>();

  override async createTask(
    taskParams: CreateTaskOptions,
    requestId: RequestId,
    request: Request,
    sessionId?: string,
  ): Promise<Task> {
    const requested = request.params?.task !== undefined;
    // A plain call's task is polled by the server itself, in memory: often, so its answer is not late.
    const task = await super.createTask(
      { ...taskParams, pollInterval: requested ? taskPollMs : plainCallPollMs },
      requestId,
      request,
      sessionId,
    );
    if (!requested) this.plainCalls.add(task.taskId);
    return task;
  }

  /** True when the client asked for a task; false for a plain call the SDK turned into one. */
  wasRequested(taskId: string): boolean {
    return !this.plainCalls.has(taskId);
  }

  /** The client's own tasks: a plain call is not one it can poll. */
  override async listTasks(
    cursor?: string,
    sessionId?: string,
  ): Promise<{ tasks: Task[]; nextCursor?: string }> {
    const page = await super.listTasks(cursor, sessionId);
    return { ...page, tasks: page.tasks.filter((task) => !this.plainCalls.has(task.taskId)) };
  }

  /** `listener` runs once if the task is cancelled; the returned function forgets it. */
  onCancelled(taskId: string, listener: () => void): () => void {
    this.cancelListeners.set(taskId, listener);
    return () => this.cancelListeners.delete(taskId);
  }

  override async updateTaskStatus(
    taskId: string,
    status: Task['status'],
    statusMessage?: string,
    sessionId?: string,
  ): Promise<void> {
    await super.updateTaskStatus(taskId, status, statusMessage, sessionId);
    if (status !== 'cancelled') return;
    const listener = this.cancelListeners.get(taskId);
    this.cancelListeners.delete(taskId);
    listener?.();
  }

  /** Stops every task still running (the server closes) and the stored results' timers. */
  close(): void {
    const listeners = [...this.cancelListeners.values()];
    this.cancelListeners.clear();
    for (const listener of listeners) listener();
    this.cleanup();
  }
}
