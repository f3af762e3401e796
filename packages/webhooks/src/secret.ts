// Webhook signing secrets in the Standard Webhooks format: `whsec_` + base64 of random bytes, which the
// `standardwebhooks` package's Webhook constructor accepts as is.
import { randomBytes } from 'node:crypto';

const SECRET_BYTES = 24;

export function generateSecret(): string {
  return `whsec_${randomBytes(SECRET_BYTES).toString('base64')}`;
}
