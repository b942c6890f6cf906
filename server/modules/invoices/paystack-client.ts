import { createHmac, timingSafeEqual } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { AppError } from '../../../common/errors.ts';

// Paystack's API as this server uses it (issue 26, decision 298): initialise a checkout, verify a
// transaction by our reference, and check a webhook's signature. Amounts are kobo integers both ways.

/** What a caller is told when Paystack cannot be reached or answers nonsense. */
export const PAYSTACK_UNAVAILABLE = 'Online payment is unavailable just now: pay by bank transfer or try again shortly';
/** How long one call to Paystack may take. */
const PAYSTACK_TIMEOUT_MS = 10_000;
/** The channels a client may pay through on Paystack's page. */
const CHANNELS = ['card', 'bank_transfer', 'ussd', 'bank'] as const;

const unavailable = () => new AppError('SERVICE_UNAVAILABLE', PAYSTACK_UNAVAILABLE);

function secretOf(app: FastifyInstance): string {
  const secret = app.config.PAYSTACK_SECRET_KEY;
  if (!secret) throw new AppError('CONFLICT', 'Online payment is not offered: pay by bank transfer');
  return secret;
}

const endpoint = (app: FastifyInstance, path: string) => `${app.config.PAYSTACK_API_URL.replace(/\/+$/, '')}${path}`;

/** One call to Paystack: its `data` when it answered `status: true`, else 503 to our caller (logged). */
async function call(app: FastifyInstance, method: 'GET' | 'POST', path: string, body?: unknown): Promise<Record<string, unknown>> {
  let response: Response;
  try {
    response = await fetch(endpoint(app, path), {
      method,
      headers: { authorization: `Bearer ${secretOf(app)}`, accept: 'application/json', ...(body !== undefined ? { 'content-type': 'application/json' } : {}) },
      body: body !== undefined ? JSON.stringify(body) : undefined,
      signal: AbortSignal.timeout(PAYSTACK_TIMEOUT_MS),
    });
  } catch (err) {
    if (err instanceof AppError) throw err;
    app.log.warn({ err, paystackPath: path.split('/').slice(0, 3).join('/') }, 'paystack unreachable');
    throw unavailable();
  }
  let parsed: unknown;
  try {
    parsed = await response.json();
  } catch {
    parsed = null;
  }
  const answer = parsed as { status?: unknown; message?: unknown; data?: unknown } | null;
  if (!response.ok || !answer || answer.status !== true || typeof answer.data !== 'object' || answer.data === null) {
    app.log.warn(
      { paystackStatus: response.status, paystackMessage: typeof answer?.message === 'string' ? answer.message.slice(0, 200) : undefined, paystackPath: path.split('/').slice(0, 3).join('/') },
      'paystack refused a call',
    );
    throw unavailable();
  }
  return answer.data as Record<string, unknown>;
}

/**
 * Paystack's amount (kobo, a JSON integer) as bigint, exactly: a safe non-negative integer or a
 * string of digits; anything else (a fraction, a float past 2^53) is refused, never rounded.
 */
export function koboOf(value: unknown): bigint | null {
  if (typeof value === 'number' && Number.isSafeInteger(value) && value >= 0) return BigInt(value);
  if (typeof value === 'string' && /^\d{1,20}$/.test(value)) return BigInt(value);
  return null;
}

export interface InitializeInput {
  email: string;
  amountKobo: bigint;
  reference: string;
  callbackUrl: string;
  metadata: Record<string, string>;
}

/** Starts a checkout on Paystack for our reference; answers the page the client is sent to. */
export async function initializeTransaction(app: FastifyInstance, input: InitializeInput): Promise<{ authorizationUrl: string }> {
  const data = await call(app, 'POST', '/transaction/initialize', {
    email: input.email,
    // Kobo as a decimal string: exact whatever its size, and accepted by Paystack as the amount.
    amount: input.amountKobo.toString(),
    currency: 'NGN',
    reference: input.reference,
    callback_url: input.callbackUrl,
    channels: CHANNELS,
    metadata: input.metadata,
  });
  const url = data.authorization_url;
  if (typeof url !== 'string' || !/^https?:\/\//.test(url)) {
    app.log.warn({ reference: input.reference }, 'paystack answered no checkout address');
    throw unavailable();
  }
  return { authorizationUrl: url };
}

export interface VerifiedTransaction {
  /** 'success' once paid; 'failed', 'abandoned', 'ongoing', 'pending', ... otherwise. */
  status: string;
  amountKobo: bigint;
  currency: string;
  id: string;
  reference: string;
}

/** What Paystack itself says of a transaction, by our reference (never what a webhook's body claims). */
export async function verifyTransaction(app: FastifyInstance, reference: string): Promise<VerifiedTransaction> {
  const data = await call(app, 'GET', `/transaction/verify/${encodeURIComponent(reference)}`);
  const amountKobo = koboOf(data.amount);
  if (amountKobo === null || typeof data.status !== 'string' || typeof data.currency !== 'string') {
    app.log.warn({ reference }, 'paystack answered a verification without amount, currency or status');
    throw unavailable();
  }
  return {
    status: data.status,
    amountKobo,
    currency: data.currency,
    id: typeof data.id === 'number' || typeof data.id === 'string' ? String(data.id) : '',
    reference: typeof data.reference === 'string' ? data.reference : reference,
  };
}

/**
 * Whether `x-paystack-signature` is the HMAC-SHA512 (hex) of the raw body with our secret key,
 * compared in constant time (a header of another length, or not hex, is simply wrong).
 */
export function verifyPaystackSignature(rawBody: Buffer, header: string | undefined, secret: string): boolean {
  if (typeof header !== 'string' || !/^[0-9a-fA-F]{128}$/.test(header.trim())) return false;
  const expected = createHmac('sha512', secret).update(rawBody).digest();
  const given = Buffer.from(header.trim(), 'hex');
  return given.length === expected.length && timingSafeEqual(given, expected);
}
