import { appendFileSync } from 'node:fs';
import { test, type APIRequestContext, type APIResponse, type Browser, type BrowserContext, type Cookie } from '@playwright/test';
import { E2E_SECRETS_FILE } from '../../playwright.config.ts';
import { SESSION_COOKIE } from '../../server/plugins/access.ts';
import { SECRET_MIN_LENGTH, type RecordedSecret } from './secret-leaks.ts';

// Decision 177: the browser tests write down every secret they use, so the run's last step
// (tests/e2e/secrets-global-teardown.ts) can grep the server's log for them: the passwords and
// tokens sent to the server (typed into pages or sent by the helpers), the session cookies the
// server handed out, the test accounts' passwords and TOTP secrets. tests/e2e/fixtures.ts watches
// every browser context, page.request and the `request` fixture of every test with these functions.

/** Fields of a request body whose values are credentials (a `code` is a one-time or recovery code). */
const SECRET_FIELD = /password|token|secret|recovery|^code$/i;
const written = new Set<string>();

function currentTest(): string {
  try {
    return test.info().titlePath.join(' › ');
  } catch {
    return '(outside a test)';
  }
}

/** Writes one secret down for the end-of-run check (each value once per worker). */
export function recordSecret(kind: string, value: string | null | undefined): void {
  if (typeof value !== 'string' || value.length < SECRET_MIN_LENGTH || written.has(value)) return;
  written.add(value);
  const entry: RecordedSecret = { kind, test: currentTest(), value };
  appendFileSync(E2E_SECRETS_FILE, `${JSON.stringify(entry)}\n`);
}

/** A text with every secret written down so far (in this worker) replaced, for messages a test prints. */
export function redactRecordedSecrets(text: string): string {
  let out = text;
  for (const secret of written) if (out.includes(secret)) out = out.split(secret).join('[secret]');
  return out;
}

/** The credential fields of a request body (JSON, or an object the API helpers send). */
function recordBodySecrets(body: unknown, where: string): void {
  const stack: unknown[] = [body];
  while (stack.length) {
    const value = stack.pop();
    if (!value || typeof value !== 'object') continue;
    for (const [key, child] of Object.entries(value as Record<string, unknown>)) {
      // A project's `code` (its reference, e.g. JR-1) is no credential: only the auth API's codes are.
      if (typeof child === 'string' && SECRET_FIELD.test(key) && !(key === 'code' && !where.includes('/api/auth'))) recordSecret(`the "${key}" field sent to ${where}`, child);
      else if (child && typeof child === 'object') stack.push(child);
    }
  }
}

function recordSetCookie(header: string | null | undefined): void {
  for (const line of (header ?? '').split('\n')) {
    const match = new RegExp(`^\\s*${SESSION_COOKIE}=([^;]*)`).exec(line);
    if (match?.[1]) recordSecret(`a session cookie (${SESSION_COOKIE})`, decodeURIComponent(match[1]));
  }
}

export function recordCookies(cookies: Cookie[]): void {
  for (const c of cookies) if (c.name === SESSION_COOKIE) recordSecret(`a session cookie (${SESSION_COOKIE})`, c.value);
}

const pathOf = (url: string) => {
  try {
    return new URL(url).pathname;
  } catch {
    return url;
  }
};

const watchedApis = new WeakSet<APIRequestContext>();

/** page.request, context.request or the `request` fixture: bodies sent and session cookies received. */
export function watchApiRequests(api: APIRequestContext): void {
  if (watchedApis.has(api)) return;
  watchedApis.add(api);
  for (const method of ['fetch', 'get', 'post', 'put', 'patch', 'delete', 'head'] as const) {
    const original = api[method].bind(api) as (url: unknown, options?: { data?: unknown; form?: unknown }) => Promise<APIResponse>;
    const wrapped = async (url: unknown, options?: { data?: unknown; form?: unknown }) => {
      const where = typeof url === 'string' ? pathOf(url) : 'the server';
      recordBodySecrets(typeof options?.data === 'string' ? safeJson(options.data) : options?.data, where);
      recordBodySecrets(options?.form, where);
      const response = await original(url, options);
      for (const h of response.headersArray()) if (h.name.toLowerCase() === 'set-cookie') recordSetCookie(h.value);
      return response;
    };
    (api as unknown as Record<string, unknown>)[method] = wrapped;
  }
}

function safeJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

const watchedContexts = new WeakSet<BrowserContext>();

/**
 * A browser context: what its pages post (typed passwords, tokens of e-mailed links), its cookie jar
 * at the end of the test and when it closes, and its page.request calls. (Reading the answers of
 * the pages' own requests made held requests miss their deadlines: the jar is read instead.)
 */
export function watchContext(context: BrowserContext): void {
  if (watchedContexts.has(context)) return;
  watchedContexts.add(context);
  watchApiRequests(context.request);
  context.on('request', (request) => {
    if (request.method() === 'GET' || request.method() === 'HEAD') return;
    const path = pathOf(request.url());
    // JSON and form fields only: an upload's body is files, and can be large.
    const type = request.headers()['content-type'] ?? '';
    const json = type.startsWith('application/json');
    if (!json && !type.startsWith('application/x-www-form-urlencoded')) return;
    const body = request.postData();
    if (body) recordBodySecrets(json ? safeJson(body) : Object.fromEntries(new URLSearchParams(body)), path);
  });
  // Contexts a test opens itself are closed by it: their cookies are read first.
  const close = context.close.bind(context);
  context.close = async (...args: Parameters<BrowserContext['close']>) => {
    await recordCookiesOf(context);
    return close(...args);
  };
}

/** The session cookies still in a context's jar (a closed context has none to give). */
export async function recordCookiesOf(context: BrowserContext): Promise<void> {
  recordCookies(await context.cookies().catch(() => []));
}

/** Contexts and pages a test opens with `browser.newContext()` or `browser.newPage()` are watched too. */
export function watchBrowser(browser: Browser): void {
  const newContext = browser.newContext.bind(browser);
  browser.newContext = async (...args: Parameters<Browser['newContext']>) => {
    const context = await newContext(...args);
    watchContext(context);
    return context;
  };
  const newPage = browser.newPage.bind(browser);
  browser.newPage = async (...args: Parameters<Browser['newPage']>) => {
    const page = await newPage(...args);
    watchContext(page.context());
    return page;
  };
}
