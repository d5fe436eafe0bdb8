import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { RequestHandlerExtra } from '@modelcontextprotocol/sdk/shared/protocol.js';
import type { CallToolResult, ServerNotification, ServerRequest } from '@modelcontextprotocol/sdk/types.js';
import { linkSignals } from '../core/link-signals.js';
import type { AgentEventListener } from '../events/agent-events.js';
import type { DeepSearchRuntime } from '../runtime/create-runtime.js';
import type { McpTool } from './mcp-tool.js';
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
}

const instructions =
  'deepsearch answers questions with cited, verified sources. Use deep_search for questions that need ' +
  'research (several sources, hops, recent facts); web_search and read_url for quick lookups.';

/**
 * An MCP server with deepsearch's tools, for any transport (stdio, streamable HTTP). Each call runs
 * with the request's abort signal (a client's notifications/cancelled stops it), reports the run's
 * events as progress notifications when the client sent a progress token, and returns any failure
 * as a tool error (isError) with a message, never a stack.
 */
export function createMcpServer(options: McpServerOptions): McpServer {
  const server = new McpServer({ name: 'deepsearch', version: options.version }, { instructions });
  for (const tool of options.tools ?? mcpTools) {
    if (tool.isEnabled && !tool.isEnabled(options.runtime)) continue;
    server.registerTool(
      tool.name,
      {
        title: tool.title,
        description: tool.description,
        inputSchema: tool.inputSchema,
        outputSchema: tool.outputSchema,
        annotations: tool.annotations,
      },
      (input: unknown, extra: ToolExtra) => callTool(tool, input, extra, options),
    );
  }
  return server;
}

async function callTool(
  tool: McpTool,
  input: unknown,
  extra: ToolExtra,
  options: McpServerOptions,
): Promise<CallToolResult> {
  const { runtime } = options;
  const scope = options.callScope?.(extra.requestId);
  const link = linkSignals([extra.signal, scope?.signal]);
  const { signal } = link;
  let release: (() => void) | undefined;
  try {
    if (options.acquireSlot) release = await options.acquireSlot(signal);
    const output = await tool.run(input as Parameters<McpTool['run']>[0], {
      runtime,
      owner: options.owner ?? 'local',
      signal,
      onEvent: progressReporter(extra, runtime.redact),
    });
    return {
      content: [{ type: 'text', text: runtime.redact(output.text) }],
      // The same redaction over the JSON text: a marker inside a string keeps it valid JSON.
      ...(output.structured
        ? { structuredContent: JSON.parse(runtime.redact(JSON.stringify(output.structured))) }
        : {}),
    };
  } catch (error) {
    return { content: [{ type: 'text', text: runtime.redact(options.describeError(error)) }], isError: true };
  } finally {
    release?.();
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
