import { createHmac } from 'node:crypto';

/** The header a signed notification carries. */
export const signatureHeader = 'x-deepsearch-signature';

/** `sha256=<hex>`: the HMAC-SHA256 of the exact body sent, keyed with the watch's secret. */
export function signBody(body: string, secret: string): string {
  return `sha256=${createHmac('sha256', secret).update(body).digest('hex')}`;
}
