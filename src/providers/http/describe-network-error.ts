/**
 * Turns the nested causes of a failed fetch ("fetch failed" → Error with code ECONNREFUSED...)
 * into a short reason a person can act on.
 */
export function describeNetworkError(error: unknown): string {
  return describeNetworkCode(error) ?? lastMessage(error);
}

/**
 * Only the system error code among the causes, in words ("connection refused (ECONNREFUSED)"):
 * unlike the messages, it names no host, so it can be shown to a server's clients.
 */
export function describeNetworkCode(error: unknown): string | undefined {
  const codes: string[] = [];
  let current: unknown = error;
  for (let depth = 0; depth < 5 && current instanceof Error; depth++) {
    const code = (current as { code?: unknown }).code;
    if (typeof code === 'string') codes.push(code);
    current = current.cause;
  }
  const code = codes.find((value) => /^E[A-Z_]+$|^UND_ERR/.test(value));
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
  if (!code) return undefined;
  return reasons[code] ? `${reasons[code]} (${code})` : code;
}

function lastMessage(error: unknown): string {
  let message: string | undefined;
  let current: unknown = error;
  for (let depth = 0; depth < 5 && current instanceof Error; depth++) {
    message = current.message;
    current = current.cause;
  }
  return message ?? 'network error';
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
