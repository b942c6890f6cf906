import type { BrowserContext, Page } from '@playwright/test';
import { E2E_BASE_URL } from '../../playwright.config.ts';
import { PATHS } from '../../common/paths.ts';
import { cspProblems, cutAddress, declaration, violationOfConsoleText, type CspViolation, type CspWatch } from './csp-watch.ts';
import { recordSecret } from './secret-recorder.ts';
import { expect, test } from './fixtures.ts';

// Decision 117: the fixture of tests/e2e/fixtures.ts fails a test on any Content-Security-Policy
// violation of any page it opened, unless the test declared exactly that one. These tests provoke
// violations on purpose: those marked test.fail() must be failed by the fixture (each checks first
// that its body did everything right, so only the fixture's check can fail it).

/** An address the page policy refuses for pictures (plain http, not this origin); its query is a "token". */
const REFUSED_PICTURE = 'http://127.0.0.2:8081/csp-probe.png';
const TOKEN = 'csp-probe-token-value-1234';
/** A page of our origin with a policy of its own, answered by the test (for the no-JavaScript context). */
const PROBE_PAGE = '/csp-probe-page';

/** The sign-in page, hydrated (its form answers through React). */
async function openSignIn(page: Page) {
  await page.goto(PATHS.clientLogin);
  await expect(page.getByRole('button', { name: 'Sign In' })).toBeVisible();
}

/** An inline script without the answer's nonce: refused (script-src-elem). */
async function injectInlineScript(page: Page) {
  const ran = await page.evaluate(() => {
    const script = document.createElement('script');
    script.textContent = 'window.__cspProbe = 1';
    document.body.append(script);
    return (window as unknown as { __cspProbe?: number }).__cspProbe === 1;
  });
  expect(ran).toBe(false);
}

async function serveProbePage(context: BrowserContext) {
  await context.route(`**${PROBE_PAGE}`, (route) =>
    route.fulfill({
      status: 200,
      headers: { 'content-type': 'text/html; charset=utf-8', 'content-security-policy': "default-src 'self'; img-src 'self'" },
      body: `<!doctype html><title>probe</title><h1>Probe</h1><img alt="" src="${REFUSED_PICTURE}?token=${TOKEN}">`,
    }),
  );
}

const byBlocked = (list: CspViolation[]) => [...list].sort((a, b) => `${a.page} ${a.blocked}`.localeCompare(`${b.page} ${b.blocked}`));

test.describe('violations a test declares', () => {
  test.use({
    expectedCspViolations: [
      `script-src inline on ${PATHS.clientLogin}`,
      `script-src eval on ${PATHS.clientLogin}`,
      `img-src ${REFUSED_PICTURE} on ${PATHS.clientLogin}`,
      `img-src ${REFUSED_PICTURE} on ${PROBE_PAGE}`,
    ],
  });

  test('are each seen once, by directive, refused address (without its query) and page, in every context the test opens', async ({ page, browser, cspViolations }) => {
    await openSignIn(page);
    await injectInlineScript(page);
    // From a task of the page's own: code evaluated by the test itself may use eval (DevTools allows it).
    const evaluated = await page.evaluate(
      () =>
        new Promise<string>((resolve) =>
          setTimeout(() => {
            try {
              resolve(String(eval('1 + 1')));
            } catch (error) {
              resolve((error as Error).name);
            }
          }, 0),
        ),
    );
    expect(evaluated).toBe('EvalError');
    await page.evaluate((src) => {
      const img = document.createElement('img');
      img.alt = '';
      img.src = src;
      document.body.append(img);
    }, `${REFUSED_PICTURE}?token=${TOKEN}`);

    // A context of the test's own with JavaScript off: only Chromium's console message tells.
    const noScript = await browser.newContext({ baseURL: E2E_BASE_URL, javaScriptEnabled: false });
    try {
      await serveProbePage(noScript);
      const other = await noScript.newPage();
      await other.goto(PROBE_PAGE);
      await expect(other.getByRole('heading', { name: 'Probe' })).toBeVisible();
      await expect.poll(() => cspViolations.list().filter((v) => v.page === PROBE_PAGE)).toHaveLength(1);
    } finally {
      await noScript.close();
    }

    await expect
      .poll(() => byBlocked(cspViolations.list()))
      .toEqual(
        byBlocked([
          { directive: 'script-src-elem', blocked: 'inline', page: PATHS.clientLogin, seenBy: 'event' },
          { directive: 'script-src', blocked: 'eval', page: PATHS.clientLogin, seenBy: 'event' },
          { directive: 'img-src', blocked: REFUSED_PICTURE, page: PATHS.clientLogin, seenBy: 'event' },
          { directive: 'img-src', blocked: REFUSED_PICTURE, page: PROBE_PAGE, seenBy: 'console' },
        ]),
      );
    expect(JSON.stringify(cspViolations.list())).not.toContain(TOKEN);
  });
});

/** Waits until the watch has the one violation the test provoked: the body passed, only the fixture can fail it. */
async function expectOneSeen(cspViolations: CspWatch) {
  await expect.poll(() => cspViolations.list().map((v) => `${v.directive} ${v.blocked}`)).toEqual([expect.stringMatching(/^script-src(-elem)? inline$|^img-src http/)]);
}

test('an undeclared violation on the test\'s page fails the test', async ({ page, cspViolations }) => {
  test.fail(true, 'the fixture must fail it: an inline script without the nonce was refused');
  await openSignIn(page);
  await injectInlineScript(page);
  await expectOneSeen(cspViolations);
});

test('an undeclared violation in a page the test opened itself (browser.newPage) fails the test', async ({ browser, cspViolations }) => {
  test.fail(true, 'the fixture must fail it: a picture over plain http was refused');
  const page = await browser.newPage({ baseURL: E2E_BASE_URL });
  try {
    await serveProbePage(page.context());
    await page.goto(PROBE_PAGE);
    await expect(page.getByRole('heading', { name: 'Probe' })).toBeVisible();
    await expectOneSeen(cspViolations);
  } finally {
    await page.context().close();
  }
});

test.describe('a declared violation that does not happen', () => {
  test.use({ expectedCspViolations: [`script-src inline on ${PATHS.clientLogin}`] });

  test('fails the test', async ({ page, cspViolations }) => {
    test.fail(true, 'the fixture must fail it: the declared violation was not seen');
    await openSignIn(page);
    expect(cspViolations.list()).toEqual([]);
  });
});

test('the failure names directive, refused address and page, never a query string or a recorded secret', async () => {
  const secret = 'e2e-csp-report-secret-0123456789';
  recordSecret('a made-up reset token (csp-watch.spec.ts)', secret);
  const fromConsole = violationOfConsoleText(
    `Loading the image '${REFUSED_PICTURE}?token=${TOKEN}' violates the following Content Security Policy directive: "img-src 'self' data: blob: https:". The action has been blocked.`,
    `${E2E_BASE_URL}/reset/${secret}?token=${TOKEN}`,
  );
  expect(fromConsole).toEqual({ directive: 'img-src', blocked: REFUSED_PICTURE, page: '/reset/[secret]', seenBy: 'console' });
  // Chromium's wordings, current (156) and older, as read from its console.
  const login = `${E2E_BASE_URL}/s/login`;
  const read = (text: string) => {
    const v = violationOfConsoleText(text, login);
    return v && `${v.directive} ${v.blocked}`;
  };
  expect(read(`Executing inline script violates the following Content Security Policy directive 'script-src 'self' 'nonce-abc''. Either the 'unsafe-inline' keyword, a hash ('sha256-a4ay='), or a nonce ('nonce-...') is required to enable inline execution. The action has been blocked.`)).toBe('script-src inline');
  expect(read(`Applying inline style violates the following Content Security Policy directive 'style-src 'self''. Either the 'unsafe-inline' keyword ... The action has been blocked.`)).toBe('style-src inline');
  expect(read(`Running the JavaScript URL violates the following Content Security Policy directive 'script-src 'self' 'nonce-abc''. Either ...`)).toBe('script-src inline');
  expect(read(`Evaluating a string as JavaScript violates the following Content Security Policy directive because 'unsafe-eval' is not an allowed source of script: "script-src 'self' 'nonce-abc'".\n The action has been blocked.`)).toBe('script-src eval');
  expect(read(`Connecting to 'http://127.0.0.5/c?x=1' violates the following Content Security Policy directive: "default-src 'self'". Note that 'connect-src' was not explicitly set, so 'default-src' is used as a fallback. The action has been blocked.`)).toBe('default-src http://127.0.0.5/c');
  expect(read(`Sending form data to 'http://127.0.0.3/f?a=b' violates the following Content Security Policy directive: "form-action 'self'". The request has been blocked.\n`)).toBe('form-action http://127.0.0.3/f');
  expect(read(`Refused to execute inline script because it violates the following Content Security Policy directive: "script-src 'self' 'nonce-abc'". Either the 'unsafe-inline' keyword...`)).toBe('script-src inline');
  expect(read(`Refused to evaluate a string as JavaScript because 'unsafe-eval' is not an allowed source of script in the following Content Security Policy directive: "script-src 'self'".`)).toBe('script-src eval');
  // The same refusal again as the fetch's error, and a refusal that is no policy's: not violations.
  expect(read(`Fetch API cannot load http://127.0.0.5/c?x=1. Refused to connect because it violates the document's Content Security Policy.`)).toBeNull();
  expect(read(`Refused to execute script from '${E2E_BASE_URL}/x.js' because its MIME type ('text/html') is not executable.`)).toBeNull();
  expect(cutAddress('data:image/png;base64,AAAA')).toBe('data');

  const problems = cspProblems([fromConsole!], []).join('\n');
  expect(problems).toContain(`- img-src ${REFUSED_PICTURE} on /reset/[secret] (seen by Chromium's console message)`);
  expect(problems).not.toContain(TOKEN);
  expect(problems).not.toContain(secret);
  // The failure names each violation as a test would declare it; declared once and seen twice, it fails.
  const declared = declaration(fromConsole!);
  expect(cspProblems([fromConsole!], [declared])).toEqual([]);
  expect(cspProblems([fromConsole!, fromConsole!], [declared, declared])).toEqual([]);
  expect(cspProblems([fromConsole!, fromConsole!], [declared])).toEqual([
    'Declared violations (expectedCspViolations) not seen as declared:',
    `- ${declared}: declared 1 time(s), seen 2`,
  ]);
  // script-src covers the event's script-src-elem; another directive does not.
  const inline: CspViolation = { directive: 'script-src-elem', blocked: 'inline', page: '/s/login', seenBy: 'event' };
  expect(cspProblems([inline], ['script-src inline on /s/login'])).toEqual([]);
  expect(cspProblems([inline], ['style-src inline on /s/login'])).toEqual([
    'Content-Security-Policy violations in this test (decision 186):',
    "- script-src-elem inline on /s/login (seen by the page's securitypolicyviolation event)",
    'Declared violations (expectedCspViolations) not seen as declared:',
    '- style-src inline on /s/login: declared 1 time(s), seen 0',
  ]);
});
