import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';

// The webhook signature (docs/webhooks.md): HMAC-SHA256 with the subscription's secret over
// `<timestamp>.<raw body>`. The timestamp is signed so a captured request cannot be replayed later
// with a fresh timestamp; receivers reject one older than a few minutes.

export const SIGNATURE_HEADER = 'x-ponte-signature';
export const TIMESTAMP_HEADER = 'x-ponte-timestamp';

export const newSecret = () => `whsec_${randomBytes(24).toString('base64url')}`;

export function sign(secret: string, timestamp: number, body: string): string {
  return `sha256=${createHmac('sha256', secret).update(`${timestamp}.${body}`).digest('hex')}`;
}

/** What a receiver does; exported for tests and as the reference for docs/webhooks.md. */
export function verify(
  secret: string,
  headers: { signature: string | undefined; timestamp: string | undefined },
  body: string,
  options: { toleranceSeconds?: number; nowSeconds?: number } = {},
): boolean {
  const timestamp = Number(headers.timestamp);
  if (!headers.signature || !Number.isInteger(timestamp)) return false;
  const now = options.nowSeconds ?? Math.floor(Date.now() / 1000);
  if (Math.abs(now - timestamp) > (options.toleranceSeconds ?? 300)) return false;
  const expected = Buffer.from(sign(secret, timestamp, body));
  const given = Buffer.from(headers.signature);
  return expected.length === given.length && timingSafeEqual(expected, given);
}
