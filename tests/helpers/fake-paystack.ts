import { createHmac } from 'node:crypto';
import http from 'node:http';
import type { Socket } from 'node:net';
import { freePort } from './free-port.ts';

/**
 * A local stand-in for Paystack (decision 298): the API the server calls through PAYSTACK_API_URL
 * (POST /transaction/initialize, GET /transaction/verify/:reference), and a hosted checkout page
 * (GET /checkout/:reference) whose "Pay" button marks the charge paid, sends the signed
 * `charge.success` webhook to the configured target and sends the browser back to the callback
 * address, as Paystack does. Usable in-process (vitest) or from another process (the browser tests)
 * through its control endpoints: POST /__outcome { reference, status?, amountKobo?, currency? } and
 * POST /__webhook-target { url }.
 */
interface FakePaystackOutcome {
  /** What verify answers as the transaction's status: 'success', 'failed', 'abandoned', 'ongoing'... */
  status?: string;
  /** The amount verify (and the webhook) reports, in kobo; the amount initialised when left out. */
  amountKobo?: bigint | number | string;
  currency?: string;
}

interface FakeInitialization {
  authorization: string | undefined;
  body: { email: string; amount: string | number; currency: string; reference: string; callback_url: string; channels: string[]; metadata: Record<string, string> };
}

export interface FakePaystack {
  url: string;
  port: number;
  /** Every initialisation received, in order. */
  initialized: FakeInitialization[];
  /** The references verify was asked about, in order. */
  verified: string[];
  /** Webhooks the checkout page sent, with the status our server answered. */
  delivered: Array<{ reference: string; status: number }>;
  setOutcome(reference: string, outcome: FakePaystackOutcome): void;
  /** Where the checkout page sends its webhooks (our server's /api/paystack/webhook); null for nowhere. */
  setWebhookTarget(url: string | null): void;
  /** While down, every API call answers 503 (as Paystack does in an outage). */
  setDown(down: boolean): void;
  /** The signature Paystack would send with this body. */
  sign(body: string | Buffer): string;
  /** A `charge.success` event for a reference as Paystack would send it: the body text and its signature. */
  chargeEvent(reference: string, data?: Record<string, unknown>): { body: string; signature: string };
  close(): Promise<void>;
}

const FAKE_SECRET = 'sk_test_fake_paystack_secret_key';

const escapeHtml = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
const naira = (kobo: bigint) => `₦${(kobo / 100n).toLocaleString('en-NG')}.${String(kobo % 100n).padStart(2, '0')}`;

export async function startFakePaystack(options: { secretKey?: string; port?: number } = {}): Promise<FakePaystack> {
  const secret = options.secretKey ?? FAKE_SECRET;
  const port = options.port ?? (await freePort());
  const url = `http://127.0.0.1:${port}`;
  const initialized: FakeInitialization[] = [];
  const verified: string[] = [];
  const delivered: FakePaystack['delivered'] = [];
  const outcomes = new Map<string, FakePaystackOutcome>();
  const ids = new Map<string, number>();
  let webhookTarget: string | null = null;
  let down = false;
  let nextId = 4_000_000_000;
  const sockets = new Set<Socket>();

  const sign = (body: string | Buffer) => createHmac('sha512', secret).update(body).digest('hex');
  const initOf = (reference: string) => initialized.findLast((i) => i.body.reference === reference);
  const idOf = (reference: string) => {
    if (!ids.has(reference)) ids.set(reference, nextId++);
    return ids.get(reference)!;
  };

  /** The transaction as Paystack's API shows it, as JSON text (the amount an exact JSON integer). */
  function transactionJson(reference: string, extra: Record<string, unknown> = {}): string {
    const init = initOf(reference);
    const outcome = outcomes.get(reference) ?? {};
    const amount = BigInt(outcome.amountKobo ?? init?.body.amount ?? 0);
    const text = JSON.stringify({
      id: idOf(reference),
      domain: 'test',
      status: outcome.status ?? 'ongoing',
      reference,
      amount: '__AMOUNT__',
      currency: outcome.currency ?? init?.body.currency ?? 'NGN',
      channel: 'card',
      paid_at: outcome.status === 'success' ? new Date().toISOString() : null,
      customer: { email: init?.body.email ?? 'someone@example.test' },
      metadata: init?.body.metadata ?? {},
      ...extra,
    });
    return text.replace('"__AMOUNT__"', amount.toString());
  }

  function chargeEvent(reference: string, data: Record<string, unknown> = {}) {
    const body = `{"event":"charge.success","data":${transactionJson(reference, { status: 'success', ...data })}}`;
    return { body, signature: sign(body) };
  }

  const json = (res: http.ServerResponse, status: number, body: string) => res.writeHead(status, { 'content-type': 'application/json' }).end(body);

  async function pay(reference: string, res: http.ServerResponse) {
    const init = initOf(reference);
    if (!init) return res.writeHead(404).end('No such checkout');
    outcomes.set(reference, { ...outcomes.get(reference), status: 'success' });
    if (webhookTarget) {
      const event = chargeEvent(reference);
      const answer = await fetch(webhookTarget, { method: 'POST', headers: { 'content-type': 'application/json', 'x-paystack-signature': event.signature }, body: event.body });
      delivered.push({ reference, status: answer.status });
    }
    res.writeHead(303, { location: init.body.callback_url }).end();
  }

  function checkoutPage(reference: string, res: http.ServerResponse) {
    const init = initOf(reference);
    if (!init) return res.writeHead(404, { 'content-type': 'text/plain' }).end('No such checkout');
    const amount = naira(BigInt(init.body.amount));
    const page = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Paystack checkout (test)</title></head>
<body><main>
<h1>Pay ${escapeHtml(amount)}</h1>
<p>Test checkout for ${escapeHtml(init.body.email)}, reference ${escapeHtml(reference)}.</p>
<form method="post" action="/checkout/${encodeURIComponent(reference)}/pay"><button type="submit">Pay ${escapeHtml(amount)}</button></form>
</main></body></html>`;
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(page);
  }

  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      void (async () => {
        const path = new URL(req.url ?? '/', url).pathname;
        const text = Buffer.concat(chunks).toString('utf8');
        if (req.method === 'POST' && path === '/__outcome') {
          const { reference, ...outcome } = JSON.parse(text) as FakePaystackOutcome & { reference: string };
          outcomes.set(reference, outcome);
          return res.writeHead(204).end();
        }
        if (req.method === 'POST' && path === '/__webhook-target') {
          webhookTarget = (JSON.parse(text) as { url: string | null }).url;
          return res.writeHead(204).end();
        }
        const checkout = /^\/checkout\/([^/]+)(\/pay)?$/.exec(path);
        if (checkout && req.method === 'GET' && !checkout[2]) return checkoutPage(decodeURIComponent(checkout[1]), res);
        if (checkout && req.method === 'POST' && checkout[2]) return pay(decodeURIComponent(checkout[1]), res);
        if (!path.startsWith('/transaction/')) return json(res, 404, '{"status":false,"message":"Not found"}');
        if (req.headers.authorization !== `Bearer ${secret}`) return json(res, 401, '{"status":false,"message":"Invalid key"}');
        if (down) return json(res, 503, '{"status":false,"message":"Service unavailable"}');
        if (req.method === 'POST' && path === '/transaction/initialize') {
          const body = JSON.parse(text) as FakeInitialization['body'];
          if (initialized.some((i) => i.body.reference === body.reference)) return json(res, 400, '{"status":false,"message":"Duplicate Transaction Reference"}');
          initialized.push({ authorization: req.headers.authorization, body });
          const data = { authorization_url: `${url}/checkout/${encodeURIComponent(body.reference)}`, access_code: `ac_${idOf(body.reference)}`, reference: body.reference };
          return json(res, 200, JSON.stringify({ status: true, message: 'Authorization URL created', data }));
        }
        const verify = /^\/transaction\/verify\/([^/]+)$/.exec(path);
        if (req.method === 'GET' && verify) {
          const reference = decodeURIComponent(verify[1]);
          verified.push(reference);
          if (!initOf(reference) && !outcomes.has(reference)) return json(res, 400, '{"status":false,"message":"Transaction reference not found"}');
          return json(res, 200, `{"status":true,"message":"Verification successful","data":${transactionJson(reference)}}`);
        }
        return json(res, 404, '{"status":false,"message":"Not found"}');
      })().catch((err: unknown) => {
        if (!res.headersSent) res.writeHead(500).end(String(err));
      });
    });
  });
  server.on('connection', (s) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));

  return {
    url,
    port,
    initialized,
    verified,
    delivered,
    setOutcome: (reference, outcome) => outcomes.set(reference, outcome),
    setWebhookTarget: (target) => {
      webhookTarget = target;
    },
    setDown: (value) => {
      down = value;
    },
    sign,
    chargeEvent,
    close: () =>
      new Promise<void>((resolve) => {
        for (const s of sockets) s.destroy();
        server.close(() => resolve());
      }),
  };
}
