import { deepSearchTool } from './deep-search-tool.js';
import { kbSearchTool } from './kb-search-tool.js';
import type { McpTool } from './mcp-tool.js';
import { readUrlTool } from './read-url-tool.js';
import { researchTool } from './research-tool.js';
import { watchTool } from './watch-tool.js';
import { webSearchTool } from './web-search-tool.js';

/**
 * Every tool the MCP server offers, in the order clients list them. A new tool is one
 * `defineMcpTool({...})` file and one entry here; stdio and HTTP both pick it up.
 */
export const mcpTools: readonly McpTool[] = [
  deepSearchTool,
  researchTool,
  webSearchTool,
  readUrlTool,
  kbSearchTool,
  watchTool,
];
