import { createHash } from 'node:crypto';
import { gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { App } from '../app.ts';
import { startWebTestApp } from '../../tests/helpers/test-app.ts';
import { fixtureServerBuild, standInWebBuild } from '../../tests/helpers/web-build.ts';
import { INJECTED_SCRIPT } from '../../tests/fixtures/page-with-injected-script.tsx';

// Decision 170 (issue 16, "CSP from the output"): the script policy of a server-rendered page is
// not read from its HTML. A page whose content carries an inline script (a sanitiser gap) gets a
// policy that allows no hash or nonce of it, while the scripts the application writes carry the
// answer's own nonce, new on every answer, from the page cache too. The build is a stand-in
// (tests/fixtures/page-with-injected-script.tsx) with our server entry and root layout.

const buildDir = standInWebBuild('page-nonce-build-', fixtureServerBuild('tests/fixtures/page-with-injected-script.tsx'));

let app: App;
let close: () => Promise<void>;
beforeAll(async () => {
  ({ app, close } = await startWebTestApp(buildDir));
});
afterAll(() => close());

const scriptSrcOf = (csp: unknown) => String(csp).split('; ').find((d) => d.startsWith('script-src')) ?? '';
const nonceOf = (csp: unknown) => /^script-src 'self' 'nonce-([A-Za-z0-9+/]{22}==)'$/.exec(scriptSrcOf(csp))?.[1];
/** Every script element of the page: its opening tag and its text. */
const scriptsOf = (html: string) => [...html.matchAll(/(<script\b[^>]*>)([\s\S]*?)<\/script>/g)].map((m) => ({ tag: m[1], text: m[2] }));
const sha256 = (text: string) => `'sha256-${createHash('sha256').update(text, 'utf8').digest('base64')}'`;

/** What a browser allows of the page: the injected script must be refused, every other script allowed. */
function expectOnlyOwnScriptsAllowed(html: string, csp: unknown, nonce: string) {
  expect(html).toContain(INJECTED_SCRIPT);
  const scripts = scriptsOf(html);
  const injected = scripts.filter((s) => s.text === 'alert(1)');
  expect(injected).toHaveLength(1);
  expect(injected[0].tag).toBe('<script>');
  expect(String(csp)).not.toContain(sha256('alert(1)'));
  expect(String(csp)).not.toContain('sha256-');
  expect(scriptSrcOf(csp)).toBe(`script-src 'self' 'nonce-${nonce}'`);
  // Ours: the theme boot script, React Router's context and route modules; each with the nonce.
  const own = scripts.filter((s) => s.text !== 'alert(1)');
  expect(own.length).toBeGreaterThanOrEqual(3);
  for (const script of own) expect(script.tag).toContain(` nonce="${nonce}"`);
  expect(html.match(/nonce="/g)?.length).toBe(own.length + (html.match(/<link [^>]*nonce="/g)?.length ?? 0));
}

describe('the script policy of a server-rendered page', () => {
  it('allows no hash or nonce of a script that came with the content; the page\'s own scripts carry the answer\'s nonce, new each answer', async () => {
    const first = await app.inject({ method: 'GET', url: '/page' });
    const second = await app.inject({ method: 'GET', url: '/page' });
    expect(first.statusCode).toBe(200);
    expect(second.statusCode).toBe(200);
    expect(first.body).toContain(INJECTED_SCRIPT);
    // Main before decision 170 hashed every inline script of the HTML, this one included.
    expect(String(first.headers['content-security-policy'])).not.toContain(sha256('alert(1)'));
    const a = nonceOf(first.headers['content-security-policy']);
    const b = nonceOf(second.headers['content-security-policy']);
    expect(a).toBeDefined();
    expect(b).toBeDefined();
    expect(a).not.toBe(b);
    expectOnlyOwnScriptsAllowed(first.body, first.headers['content-security-policy'], a!);
    expectOnlyOwnScriptsAllowed(second.body, second.headers['content-security-policy'], b!);
    expect(first.body).not.toContain(b!);
    expect(first.headers['cache-control']).toBe('no-store');
  });

  it('gives a page from the page cache a fresh nonce in its HTML and its policy on every answer, plain and gzip', async () => {
    const rendered = await app.inject({ method: 'GET', url: '/cached' });
    expect(app.pageCache.get('/cached', app.clock.now())).toBeDefined();
    const plain = await app.inject({ method: 'GET', url: '/cached', headers: { 'accept-encoding': 'identity' } });
    const gzip = await app.inject({ method: 'GET', url: '/cached', headers: { 'accept-encoding': 'br, gzip' } });
    expect(gzip.headers['content-encoding']).toBe('gzip');
    expect(Number(gzip.headers['content-length'])).toBe(gzip.rawPayload.length);
    const gzipHtml = gunzipSync(gzip.rawPayload).toString('utf8');

    const answers = [
      { html: rendered.body, csp: rendered.headers['content-security-policy'] },
      { html: plain.body, csp: plain.headers['content-security-policy'] },
      { html: gzipHtml, csp: gzip.headers['content-security-policy'] },
    ];
    const nonces = answers.map((answer) => nonceOf(answer.csp));
    expect(new Set(nonces).size).toBe(3);
    answers.forEach((answer, i) => expectOnlyOwnScriptsAllowed(answer.html, answer.csp, nonces[i]!));
    // The same page apart from the nonce.
    expect(plain.body.replaceAll(nonces[1]!, 'N')).toBe(rendered.body.replaceAll(nonces[0]!, 'N'));
    expect(gzipHtml.replaceAll(nonces[2]!, 'N')).toBe(rendered.body.replaceAll(nonces[0]!, 'N'));
  });

  it('revalidates a cached page with a weak ETag, and its 304 carries no policy (the stored one names the stored body\'s nonce)', async () => {
    const page = await app.inject({ method: 'GET', url: '/cached' });
    const etag = String(page.headers.etag);
    expect(etag).toMatch(/^W\/"[\w-]+"$/);
    const again = await app.inject({ method: 'GET', url: '/cached', headers: { 'if-none-match': etag } });
    expect(again.statusCode).toBe(304);
    expect(again.headers['content-security-policy']).toBeUndefined();
    expect(again.headers['x-content-type-options']).toBe('nosniff');
  });
});
