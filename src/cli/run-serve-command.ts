import { once } from 'node:events';
import { ConfigError } from '../errors/index.js';
import { serverModels } from '../server/server-app.js';
import { assertGuardedBind, startServer } from '../server/start-server.js';
import type { CliIo } from './cli-io.js';
import { createCliRuntime } from './create-cli-runtime.js';
import { prepareLlm, prepareSearch } from './first-run-setup.js';
import { loadCliConfig } from './load-cli-config.js';

export interface ServeCommandOptions {
  flags: Record<string, unknown>;
  configPath: string | undefined;
  yes?: boolean;
}

/**
 * `deepsearch serve`: the OpenAI-compatible API until SIGTERM or Ctrl-C, then a graceful stop.
 * The access log (one JSON line per request) goes to stdout, everything else to stderr.
 */
export async function runServeCommand(io: CliIo, options: ServeCommandOptions): Promise<void> {
  const config = loadCliConfig(io, options.flags, options.configPath);
  const settings = config.server;
  // Before the LLM checks: a bind that would be refused anyway fails at once.
  assertGuardedBind(settings);
  // Fail at start, not on the first client's request, when search or the LLM (or its key) is not set.
  await prepareLlm(io, config, { offerDownload: true, yes: options.yes });
  prepareSearch(io, config);
  const runtime = createCliRuntime(io, config);
  const server = await startServer({ runtime, settings, log: (line) => io.stdout.write(`${line}\n`) }).catch(
    (error: NodeJS.ErrnoException) => {
      if (error.code !== 'EADDRINUSE' && error.code !== 'EACCES') throw error;
      throw new ConfigError(
        `cannot listen on ${settings.host}:${settings.port} (${error.code}): choose another --port`,
        {
          cause: error,
        },
      );
    },
  );
  // One write: whoever reads the first line (a supervisor, a test) has the page's address too.
  // The page starts, lists and follows runs: without the run store it can only say so.
  io.stderr.write(
    `deepsearch: serving ${serverModels.join(', ')} at ${server.url}/v1 (POST /v1/chat/completions, POST /v1/responses${runtime.runs ? ', POST /v1/research' : ''}), MCP at ${server.url}/mcp\n` +
      `deepsearch: web page at ${server.url}/${runtime.runs ? '' : ' (it needs the run store: runs are off, --no-runs)'}\n`,
  );
  if (!io.signal.aborted) await once(io.signal, 'abort');
  io.stderr.write(
    `deepsearch: stopping; running requests get up to ${settings.shutdownGraceSeconds}s to finish\n`,
  );
  await server.close();
  runtime.close();
}
