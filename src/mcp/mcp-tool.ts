import type * as z from 'zod';
import type { AgentEventListener } from '../events/agent-events.js';
import type { DeepSearchRuntime } from '../runtime/create-runtime.js';
import type { WatchService } from '../watch/watch-service.js';

/** What a tool gets besides its arguments. */
export interface McpToolContext {
  runtime: DeepSearchRuntime;
  /** Whose the runs the tool starts are (the key that opened the session; `local` on stdio). */
  owner: string;
  /** The client's cancellation, joined with a disconnect or the server's shutdown. */
  signal: AbortSignal;
  /** The run's events, turned into the client's progress notifications (when it asked for them). */
  onEvent: AgentEventListener;
  /** The watches, where the entry point keeps them (the `watch` tool is offered only then). */
  watches?: WatchService;
}

/** What a tool returns: text for the model, and the same as structured data when it has an output schema. */
export interface McpToolOutput {
  text: string;
  structured?: Record<string, unknown>;
}

/**
 * One MCP tool as one object: its name, description and JSON schemas (from zod) for the client,
 * and what it runs. `create-mcp-server.ts` registers every tool of `mcpTools` whose `isEnabled` says
 * yes, and turns errors, cancellation and progress into MCP's terms, so a tool only does its work.
 */
export interface McpTool<
  Input extends z.ZodRawShape = z.ZodRawShape,
  Output extends z.ZodRawShape = z.ZodRawShape,
> {
  name: string;
  title: string;
  description: string;
  inputSchema: Input;
  outputSchema?: Output;
  /** Hints for clients: read-only, open world (reaches the web)... */
  annotations: { readOnlyHint?: boolean; openWorldHint?: boolean; idempotentHint?: boolean };
  /**
   * Long enough (minutes) for a client's call timeout: also offered as an MCP task, which the client
   * may start, poll and cancel (a plain call still works).
   */
  runsLong?: boolean;
  /** Offered only when this says so (kb_search: a knowledge base exists; watch: watches are kept). Default: always. */
  isEnabled?(runtime: DeepSearchRuntime, entry: { watches?: WatchService }): boolean;
  run(input: z.infer<z.ZodObject<Input>>, context: McpToolContext): Promise<McpToolOutput>;
}

/** Keeps a tool's argument types for its `run` while the registry holds tools of different shapes. */
export function defineMcpTool<Input extends z.ZodRawShape, Output extends z.ZodRawShape>(
  tool: McpTool<Input, Output>,
): McpTool {
  return tool as unknown as McpTool;
}
