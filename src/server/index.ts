// The `deepsearch/server` entry: the OpenAI-compatible HTTP API (with /mcp and the web page) as a
// hono app to mount, or a server to start, on a runtime from `deepsearch`.
export { createServerApp, type ServerAppOptions } from './server-app.js';
export { type RunningServer, type StartServerOptions, startServer } from './start-server.js';
