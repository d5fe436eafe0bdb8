import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { RequestHandlerExtra } from '@modelcontextprotocol/sdk/shared/protocol.js';
import type { CallToolResult, ServerNotification, ServerRequest } from '@modelcontextprotocol/sdk/types.js';
import { linkSignals } from '../core/link-signals.js';
import type { AgentEventListener } from '../events/agent-events.js';
import type { DeepSearchRuntime } from '../runtime/create-runtime.js';
import type { WatchService } from '../watch/watch-service.js';
import { callMcpTool } from './call-mcp-tool.js';
import { McpTaskStore } from './mcp-task-store.js';
import type { McpTool } from './mcp-tool.js';
import { createToolTaskHandler } from './mcp-tool-task.js';
import { mcpTools } from './mcp-tools.js';
import { progressMessage } from './progress-message.js';

type ToolExtra = RequestHandlerExtra<ServerRequest, ServerNotification>;

export interface McpServerOptions {
  runtime: DeepSearchRuntime;
  /** The package version, reported to clients. */
  version: string;
  /**
   * The text a client sees when a tool fails: the entry point decides how much detail (stdio is the
   * user's own process and says everything, like the CLI; HTTP follows the API's rules).
   */
  describeError: (error: unknown) => string;
  /**
   * Takes one of the server's concurrency slots for every call (HTTP: a read or a search is work
   * like a run, and 2,000 of them at once froze the server); none on stdio (the user's own process).
   */
  acquireSlot?: (signal: AbortSignal) => Promise<() => void>;
  /**
   * More reasons to stop one call besides the client's cancellation (the connection that carried it
   * closing, shutdown); `end` is called when the call is over.
   */
  callScope?: (requestId: string | number) => { signal: AbortSignal; end(): void } | undefined;
  /** Default: every tool of `mcpTools` that is enabled for the runtime. */
  tools?: readonly McpTool[];
  /**
   * Whose the runs started by this server's tools are (the run store, per-key limits, listing):
   * the API key that opened the HTTP session; default `local` (stdio: the user's own process).
   */
  owner?: string;
  /** The watches (the `watch` tool): the server's, on HTTP; none on stdio for now. */
  watches?: WatchService;
}

const instructions =
  'deepsearch answers questions with cited, verified sources. Use deep_search for questions that need ' +
  'research (several sources, hops, recent facts); web_search and read_url for quick lookups. ' +
  'deep_search and research may run as tasks (start, poll, cancel) for clients that support them.';

/**
 * An MCP server with deepsearch's tools, for any transport (stdio, streamable HTTP). Each call runs
 * with the request's abort signal (a client's notifications/cancelled stops it), reports the run's
 * events as progress notifications when the client sent a progress token, and returns any failure
 * as a tool error (isError) with a message, never a stack. The long tools (`runsLong`) are also
 * offered as MCP tasks (mcp-tool-task.ts); their tasks live as long as this server.
 */
export function createMcpServer(options: McpServerOptions): McpServer {
  const taskStore = new McpTaskStore();
  const server = new McpServer(
    { name: 'deepsearch', version: options.version },
    {
      instructions,
      capabilities: { tasks: { list: {}, cancel: {}, requests: { tools: { call: {} } } } },
      taskStore,
    },
  );
  for (const tool of options.tools ?? mcpTools) {
    if (tool.isEnabled && !tool.isEnabled(options.runtime, options)) continue;
    const config = {
      title: tool.title,
      description: tool.description,
      inputSchema: tool.inputSchema,
      outputSchema: tool.outputSchema,
      annotations: tool.annotations,
    };
    if (tool.runsLong) {
      server.experimental.tasks.registerToolTask(
        tool.name,
        { ...config, execution: { taskSupport: 'optional' } },
        createToolTaskHandler({
          tool,
          server: options,
          store: taskStore,
          notify: (notification) => server.server.notification(notification),
        }),
      );
    } else {
      server.registerTool(tool.name, config, (input: unknown, extra: ToolExtra) =>
        callTool(tool, input, extra, options),
      );
    }
  }
  // Closing the server (stdin closed, the HTTP session ends) stops the tasks still running.
  const closed = server.server.onclose;
  server.server.onclose = () => {
    taskStore.close();
    closed?.();
  };
  return server;
}

async function callTool(
  tool: McpTool,
  input: unknown,
  extra: ToolExtra,
  options: McpServerOptions,
): Promise<CallToolResult> {
  const scope = options.callScope?.(extra.requestId);
  const link = linkSignals([extra.signal, scope?.signal]);
  try {
    return await callMcpTool({
      tool,
      input,
      server: options,
      signal: link.signal,
      onEvent: progressReporter(extra, options.runtime.redact),
    });
  } finally {
    scope?.end();
    link.unlink();
  }
}

/** The run's events as `notifications/progress`, only when the client asked (a progress token). */
function progressReporter(extra: ToolExtra, redact: (text: string) => string): AgentEventListener {
  const progressToken = extra._meta?.progressToken;
  if (progressToken === undefined) return () => undefined;
  let progress = 0;
  return (event) => {
    const message = progressMessage(event);
    if (!message) return;
    // Progress must grow with each notification; steps repeat, so this counts the messages.
    progress += 1;
    extra
      .sendNotification({
        method: 'notifications/progress',
        params: { progressToken, progress, message: redact(message) },
      })
      .catch(() => undefined); // the client left: the run's signal stops it
  };
}
