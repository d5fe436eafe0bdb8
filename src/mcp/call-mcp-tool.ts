import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { AgentEventListener } from '../events/agent-events.js';
import type { McpServerOptions } from './create-mcp-server.js';
import type { McpTool } from './mcp-tool.js';

/**
 * One tool call to its MCP result, whichever way it was started (a plain call or a task): a server
 * slot when the entry point has slots, the tool's run, the output redacted, any failure an
 * `isError` result with the entry point's message (never a stack).
 */
export async function callMcpTool(options: {
  tool: McpTool;
  input: unknown;
  server: McpServerOptions;
  signal: AbortSignal;
  onEvent: AgentEventListener;
}): Promise<CallToolResult> {
  const { runtime } = options.server;
  let release: (() => void) | undefined;
  try {
    if (options.server.acquireSlot) release = await options.server.acquireSlot(options.signal);
    const output = await options.tool.run(options.input as Parameters<McpTool['run']>[0], {
      runtime,
      owner: options.server.owner ?? 'local',
      signal: options.signal,
      onEvent: options.onEvent,
      ...(options.server.watches ? { watches: options.server.watches } : {}),
    });
    return {
      content: [{ type: 'text', text: runtime.redact(output.text) }],
      // The same redaction over the JSON text: a marker inside a string keeps it valid JSON.
      ...(output.structured
        ? { structuredContent: JSON.parse(runtime.redact(JSON.stringify(output.structured))) }
        : {}),
    };
  } catch (error) {
    return {
      content: [{ type: 'text', text: runtime.redact(options.server.describeError(error)) }],
      isError: true,
    };
  } finally {
    release?.();
  }
}
