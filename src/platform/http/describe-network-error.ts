/**
 * Turns the nested causes of a failed fetch ("fetch failed" → Error with code ECONNREFUSED...)
 * into a short reason a person can act on.
 */
export function describeNetworkError(error: unknown): string {
  const code = networkErrorCode(error);
  const reasons: Record<string, string> = {
    ECONNREFUSED: 'connection refused',
    ENOTFOUND: 'host not found',
    EAI_AGAIN: 'DNS lookup failed',
    ECONNRESET: 'connection reset',
    ETIMEDOUT: 'connection timed out',
    EHOSTUNREACH: 'host unreachable',
    ENETUNREACH: 'network unreachable',
    UND_ERR_CONNECT_TIMEOUT: 'connection timed out',
    UND_ERR_SOCKET: 'connection closed unexpectedly',
  };
  if (code) return reasons[code] ? `${reasons[code]} (${code})` : code;
  let current: unknown = error;
  let message = 'network error';
  for (let depth = 0; depth < 5 && current instanceof Error; depth++) {
    message = current.message;
    current = current.cause;
  }
  return message;
}

/**
 * Only the reason the system error code gives, in words ("connection refused (ECONNREFUSED)"), or
 * undefined without one: unlike the messages, it names no host, so a server's clients may see it.
 */
export function describeNetworkCode(error: unknown): string | undefined {
  return networkErrorCode(error) ? describeNetworkError(error) : undefined;
}

/** The system or undici error code (ECONNREFUSED, UND_ERR_SOCKET...) in a failed fetch's causes. */
export function networkErrorCode(error: unknown): string | undefined {
  let current: unknown = error;
  for (let depth = 0; depth < 5 && current instanceof Error; depth++) {
    const code = (current as { code?: unknown }).code;
    if (typeof code === 'string' && /^E[A-Z_]+$|^UND_ERR/.test(code)) return code;
    current = current.cause;
  }
  return undefined;
}

/** URL without query string or credentials, for messages: query strings may carry keys. */
export function displayUrl(url: string): string {
  try {
    const parsed = new URL(url);
    return `${parsed.protocol}//${parsed.host}${parsed.pathname}`;
  } catch {
    return '(invalid URL)';
  }
}
