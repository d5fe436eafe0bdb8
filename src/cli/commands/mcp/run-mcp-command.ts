import type { Writable } from 'node:stream';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { packageVersion } from '../../../core/package-version.js';
import { createMcpServer } from '../../../mcp/create-mcp-server.js';
import { describeToolError } from '../../../mcp/describe-tool-error.js';
import { kbFileValues } from '../../flags/kb-merge-flag.js';
import type { CliIo } from '../../io/cli-io.js';
import { createCliRuntime } from '../../setup/create-cli-runtime.js';
import { prepareLlm, prepareSearch } from '../../setup/first-run-setup.js';
import { loadCliConfig } from '../../setup/load-cli-config.js';

export interface McpCommandOptions {
  flags: Record<string, unknown>;
  configPath: string | undefined;
  kb?: string;
}

/**
 * `deepsearch mcp`: the MCP tools over stdio until the client closes stdin (or SIGTERM/Ctrl-C).
 * stdout carries the protocol and nothing else; notes, warnings and errors go to stderr, which MCP
 * clients show as the server's log.
 */
export async function runMcpCommand(io: CliIo, options: McpCommandOptions): Promise<void> {
  const loaded = loadCliConfig(io, options.flags, options.configPath, kbFileValues(options.kb, io.cwd));
  // Fail at start, with the line saying what to set, rather than on the client's first call.
  const config = await prepareLlm(io, loaded);
  prepareSearch(io, config);
  const runtime = createCliRuntime(io, config);
  const server = createMcpServer({ runtime, version: packageVersion(), describeError: describeToolError });
  const closed = untilClosed(io);
  await server.connect(new StdioServerTransport(io.stdin as NodeJS.ReadStream, protocolOutput(io)));
  io.stderr.write('deepsearch: MCP server ready on stdio\n');
  await closed;
  // Closing the server aborts the calls still running: their runs stop before their next LLM call.
  await server.close();
  runtime.close();
}

/** Resolves when the client closes our stdin (it has gone) or the process is told to stop. */
function untilClosed(io: CliIo): Promise<void> {
  return new Promise((done) => {
    io.stdin.once('end', () => done());
    io.stdin.once('close', () => done());
    if (io.signal.aborted) done();
    else io.signal.addEventListener('abort', () => done(), { once: true });
  });
}

/**
 * stdout as the transport writes to it, through the CLI's redacting writer (no configured key
 * leaves in a message). That writer has no 'drain' event: writes always report buffered, which
 * Node's stdout handles (messages are small).
 */
function protocolOutput(io: CliIo): Writable {
  return {
    write: (text: string) => {
      io.stdout.write(text);
      return true;
    },
  } as unknown as Writable;
}
