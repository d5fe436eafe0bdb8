/** Replaces every known secret in a text; what every output path (log, error line, stream, prompt) passes text through. */
export type Redactor = (text: string) => string;

export const redactedMarker = '[redacted]';

/** Key prefixes of vendors (OpenAI, Anthropic, Google, Groq, Hugging Face, GitHub, Tavily, Jina, AWS...). */
const vendorKey =
  /^(?:sk-|sk_|rk_|pk_|AIza|gsk_|hf_|ghp_|gho_|github_pat_|glpat-|xai-|tvly-|jina_|pplx-|r8_|xox[abpors]-|AKIA)[A-Za-z0-9_-]{8,}$/;
/** Below this, a value is a word or a placeholder; at and above it, one that looks random enough is a key. */
const minKeyChars = 12;
const minBitsPerChar = 3;

/**
 * Whether a configured value can be a secret worth redacting: a vendor key's shape, or a value
 * without spaces of 12+ characters that is random enough (Shannon entropy ≥ 3 bits a character;
 * under 16 characters it must also mix letters and digits). Placeholders local servers take
 * (`ollama`, `lm-studio`, `EMPTY`, `Kestrel`) are not: replacing them would mangle answers ("the
 * [redacted] Trust") and model names, and they protect nothing.
 */
export function canBeSecret(value: string): boolean {
  if (/\s/.test(value)) return false;
  if (vendorKey.test(value)) return true;
  if (value.length < minKeyChars || bitsPerChar(value) < minBitsPerChar) return false;
  return value.length >= 16 || (/\d/.test(value) && /\p{L}/u.test(value));
}

function bitsPerChar(value: string): number {
  const counts = new Map<string, number>();
  for (const char of value) counts.set(char, (counts.get(char) ?? 0) + 1);
  let bits = 0;
  for (const count of counts.values()) {
    const share = count / value.length;
    bits -= share * Math.log2(share);
  }
  return bits;
}

/**
 * A value to redact: an API key, replaced only when it can be one (`canBeSecret`), or a password
 * (a proxy's, one written in a URL), which a person chose and which is replaced whatever it looks
 * like, from 4 characters.
 */
export type Secret = string | { password: string };

function secretText(secret: Secret | undefined): string | undefined {
  if (!secret) return undefined;
  if (typeof secret === 'string') return canBeSecret(secret) ? secret : undefined;
  return secret.password.length >= 4 ? secret.password : undefined;
}

/**
 * A redactor for these secrets, also in their URL-encoded form (a key echoed back from a query
 * string). Longest first, so a key that contains another is replaced whole. Keys that cannot be
 * secrets are left alone: a placeholder key is ordinary text, and replacing it in a page's quote
 * or a model name would change what is shown without protecting anything.
 */
export function createRedactor(secrets: Iterable<Secret | undefined>): Redactor {
  const variants = new Set<string>();
  for (const each of secrets) {
    const secret = secretText(each);
    if (!secret) continue;
    variants.add(secret);
    variants.add(encodeURIComponent(secret));
  }
  const ordered = [...variants].sort((a, b) => b.length - a.length);
  if (ordered.length === 0) return (text) => text;
  return (text) => {
    let out = text;
    for (const secret of ordered) if (out.includes(secret)) out = out.split(secret).join(redactedMarker);
    return out;
  };
}

/**
 * Redacts the messages of an error and of its causes in place, so whoever prints, logs or
 * prompts with it later sees no secret. Returns the same error.
 */
export function redactErrorMessages<T>(error: T, redact: Redactor): T {
  let current: unknown = error;
  for (let depth = 0; depth < 8 && current instanceof Error; depth++) {
    const cleaned = redact(current.message);
    if (cleaned !== current.message) {
      current.message = cleaned;
      if (current.stack) current.stack = redact(current.stack);
    }
    for (const field of ['responseBody', 'text'] as const) {
      const value = (current as unknown as Record<string, unknown>)[field];
      if (typeof value === 'string') {
        try {
          (current as unknown as Record<string, unknown>)[field] = redact(value);
        } catch {
          // a read-only field: nothing prints it without the message
        }
      }
    }
    current = current.cause;
  }
  return error;
}

const secretHeader = /authorization|api[-_]?key|token|secret|subscription|password/i;
const secretParameter = /key|token|secret|auth|password|signature/i;

/**
 * The secrets a request carries: values of credential headers (without the `Bearer ` / `Basic `
 * scheme), credential-looking query parameters and URL passwords. A provider redacts these from
 * whatever the service answers before the text goes into an error.
 */
export function requestSecrets(url: string, headers: Record<string, string> | undefined): Secret[] {
  const secrets: Secret[] = [];
  for (const [name, value] of Object.entries(headers ?? {})) {
    if (!secretHeader.test(name) || !value) continue;
    secrets.push(value, value.replace(/^(Bearer|Basic|Token)\s+/i, ''));
  }
  try {
    const parsed = new URL(url);
    for (const [name, value] of parsed.searchParams) if (secretParameter.test(name)) secrets.push(value);
    if (parsed.password) secrets.push({ password: decodeURIComponent(parsed.password) });
  } catch {
    // not a URL: nothing more to collect
  }
  return secrets;
}
