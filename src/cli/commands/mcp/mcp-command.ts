import type { Command } from 'commander';
import { configFlag } from '../../flags/config-flag.js';
import { addExamples, addSettingFlags, collectSettingFlags } from '../../flags/setting-flags.js';
import type { CliIo } from '../../io/cli-io.js';

/** Registers `deepsearch mcp`; the MCP SDK and the runtime are loaded only when it runs. */
export function addMcpCommand(program: Command, io: CliIo): void {
  const mcp = addSettingFlags(
    program
      .command('mcp')
      .description(
        'serve the MCP tools (deep_search, research, web_search, read_url, kb_search) over stdio, for Claude Desktop, VS Code and other MCP clients',
      )
      .option('--kb <path>', "knowledge base file for kb_search (default: the user's data directory's)")
      .addOption(configFlag()),
    { scope: 'mcp' },
  );
  addExamples(mcp, [
    'deepsearch mcp',
    'deepsearch mcp --llm-base-url http://localhost:11434/v1 --llm-model qwen2.5:7b --max-steps 12',
  ]);
  mcp.action(async (options: { config?: string; kb?: string }) => {
    const { runMcpCommand } = await import('./run-mcp-command.js');
    await runMcpCommand(io, { flags: collectSettingFlags(mcp), configPath: options.config, kb: options.kb });
  });
}
