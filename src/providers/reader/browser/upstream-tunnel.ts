import type { Duplex } from 'node:stream';
import type { ProxyChoice } from '../../../config/proxy-settings.js';
import { toProxyError } from '../../../platform/http/proxy-error.js';

/**
 * A tunnel to host:port through the configured proxy (a CONNECT, sent by undici's Client, with the
 * proxy URL's credentials as Basic Proxy-Authorization). A refusal or an unreachable proxy becomes
 * the same error the outbound fetch gives (toProxyError: names the proxy and what set it).
 */
export async function openUpstreamTunnel(options: {
  proxy: ProxyChoice;
  url: URL;
  host: string;
  port: number;
}): Promise<Duplex> {
  const { Client } = await import('undici');
  const proxyUrl = new URL(options.proxy.url);
  const authority = `${options.host.includes(':') ? `[${options.host}]` : options.host}:${options.port}`;
  const headers: Record<string, string> = { host: authority };
  if (proxyUrl.username || proxyUrl.password) {
    const credentials = `${decodeURIComponent(proxyUrl.username)}:${decodeURIComponent(proxyUrl.password)}`;
    headers['proxy-authorization'] = `Basic ${Buffer.from(credentials).toString('base64')}`;
  }
  const client = new Client(proxyUrl.origin);
  try {
    const { socket, statusCode } = await client.connect({ path: authority, headers });
    if (statusCode === 200) return socket;
    socket.destroy();
    // The message toProxyError reads a status from, as undici's ProxyAgent words it.
    throw new Error(`Proxy response (${statusCode}) !== 200 when HTTP Tunneling`);
  } catch (error) {
    throw toProxyError(error, { proxy: options.proxy, url: options.url });
  } finally {
    // The tunnel's socket is the caller's now; the client only made the request.
    void client.close().catch(() => undefined);
  }
}
