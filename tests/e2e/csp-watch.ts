import type { Browser, BrowserContext, ConsoleMessage, Page } from '@playwright/test';
import { E2E_BASE_URL } from '../../playwright.config.ts';
import { redactRecordedSecrets } from './secret-recorder.ts';

// Decision 117: every Content-Security-Policy violation of every page a browser test opens fails
// the test. tests/e2e/fixtures.ts watches the test's context and every context or page the test
// opens itself with these functions, and checks what was seen after each test.

/** A violation as the report names it: directive, what was refused, and the page it happened on. */
export interface CspViolation {
  /** The refused directive: the event's effective directive (`script-src-elem`), or the directive Chromium's message names. */
  directive: string;
  /** 'inline', 'eval', 'wasm-eval', a scheme ('data'), or an address cut to origin and path (a query string can carry tokens). */
  blocked: string;
  /** The page: its path on the test server, origin and path elsewhere. */
  page: string;
  /** Where it was seen: the page's `securitypolicyviolation` event, or only Chromium's console message. */
  seenBy: 'event' | 'console';
}

/**
 * A violation a test provokes on purpose, as the failure names it: `'<directive> <blocked> on <page>'`,
 * e.g. `'script-src inline on /articles/x'` (`test.use({ expectedCspViolations: [...] })`; a string,
 * because Playwright would read an array of two objects as a fixture and its options). Each one
 * must happen exactly as many times as it is listed, and only those are let through.
 * `script-src` also matches `script-src-elem` and `script-src-attr` (the event names the one,
 * Chromium's message the other).
 */
export type ExpectedCspViolation = `${string} ${string} on ${string}`;

interface Seen extends CspViolation {
  /** The Playwright page it came from, to pair an event with its console message. */
  source: Page | null;
}

const BASE_ORIGIN = new URL(E2E_BASE_URL).origin;
const BINDING = '__e2eCspViolation';

/** An address cut to what a report may show: origin and path; a scheme alone for data:, blob: and the like. */
export function cutAddress(value: string): string {
  let out = value;
  try {
    const url = new URL(value);
    if (['http:', 'https:', 'ws:', 'wss:'].includes(url.protocol)) out = url.origin === BASE_ORIGIN ? url.pathname : `${url.origin}${url.pathname}`;
    else out = url.protocol.replace(/:$/, '');
  } catch {
    // a keyword: 'inline', 'eval', 'wasm-eval', 'trusted-types-sink'
  }
  return redactRecordedSecrets(out.replace(/[^\x20-\x7e]/g, '?').slice(0, 200));
}

// Chromium's console message of a refusal, in its current wording ("Loading the image 'http://...'
// violates the following Content Security Policy directive: \"img-src ...\". The action has been
// blocked.", "Executing inline script violates the following Content Security Policy directive
// 'script-src ...'", "Evaluating a string as JavaScript violates the following Content Security
// Policy directive because 'unsafe-eval' is not an allowed source of script: \"script-src ...\"")
// and its older one ("Refused to load the image '...' because it violates ...", "Refused to
// evaluate a string as JavaScript because 'unsafe-eval' is not an allowed source of script in the
// following Content Security Policy directive: ..."). Not "Fetch API cannot load ... Refused to
// connect because it violates the document's Content Security Policy": that is the same refusal
// again, as the fetch's error.
const OLD_WORDING = /^(?:\[Report Only\] )?Refused to (.*?) because .*Content Security Policy directive/s;
const NEW_WORDING = /^(?:\[Report Only\] )?(.*?) violates the following Content Security Policy directive/s;

/** The blocked part of the message's subject ("Loading the image 'URL'", "Executing inline script"). */
function blockedOfSubject(what: string): string {
  const quoted = /'(.*)'/s.exec(what)?.[1];
  if (quoted) return quoted;
  if (/WebAssembly/i.test(what)) return 'wasm-eval';
  if (/evaluat/i.test(what)) return 'eval';
  if (/inline|JavaScript URL/i.test(what)) return 'inline';
  return 'unknown';
}

/** A console message of a policy refusal, read into a violation; null for any other message. */
export function violationOfConsoleText(text: string, pageUrl: string): CspViolation | null {
  const subject = OLD_WORDING.exec(text)?.[1] ?? NEW_WORDING.exec(text)?.[1];
  if (subject === undefined) return null;
  return {
    directive: /directive:? ['"]([a-z-]+)/.exec(text)?.[1] ?? /: "([a-z-]+)/.exec(text)?.[1] ?? 'unknown',
    blocked: cutAddress(blockedOfSubject(subject)),
    page: cutAddress(pageUrl),
    seenBy: 'console',
  };
}

const family = (directive: string) => directive.replace(/-(elem|attr)$/, '');
const sameBlocked = (a: string, b: string) => a === b || (/^https?:\/\/[^/]+$/.test(a) && b.startsWith(`${a}/`)) || (/^https?:\/\/[^/]+$/.test(b) && a.startsWith(`${b}/`));

/** The violations one test saw, its own and those of the contexts it opened. */
export class CspWatch {
  private events: Seen[] = [];
  private consoles: Seen[] = [];
  readonly contexts = new Set<BrowserContext>();

  addEvent(v: Seen) {
    this.events.push(v);
  }

  addConsole(v: Seen) {
    this.consoles.push(v);
  }

  /**
   * Every violation once: each page event, and each console message no event of the same page
   * explains (with JavaScript off, or a page that closed before its event was delivered).
   */
  list(): CspViolation[] {
    const paired = new Set<Seen>();
    const out: CspViolation[] = [];
    for (const c of this.consoles) {
      const event = this.events.find((e) => !paired.has(e) && e.source === c.source && sameBlocked(e.blocked, c.blocked));
      if (event) paired.add(event);
      else out.push(strip(c));
    }
    return [...this.events.map(strip), ...out];
  }
}

const strip = ({ directive, blocked, page, seenBy }: Seen): CspViolation => ({ directive, blocked, page, seenBy });

/** A violation in the words a test declares it with (expectedCspViolations). */
export const declaration = (v: CspViolation): ExpectedCspViolation => `${v.directive} ${v.blocked} on ${v.page}`;
const DECLARATION = /^(\S+) (\S+) on (\S+)$/;

/**
 * What is wrong with a test's violations given those it declares: each undeclared one, and each
 * declared one not seen exactly as many times as it is listed. Empty when all is well.
 */
export function cspProblems(seen: CspViolation[], expected: readonly string[]): string[] {
  const left = [...seen];
  const wrong: string[] = [];
  const times = new Map<string, number>();
  for (const e of expected) times.set(e, (times.get(e) ?? 0) + 1);
  for (const [e, wanted] of times) {
    const parts = DECLARATION.exec(e);
    if (!parts) {
      wrong.push(`- "${e}" is not in the form '<directive> <blocked> on <page>'`);
      continue;
    }
    const [, directive, blocked, page] = parts;
    let count = 0;
    for (let i = left.length - 1; i >= 0; i--) {
      const v = left[i];
      if (family(v.directive) === family(directive) && v.blocked === blocked && v.page === page) {
        left.splice(i, 1);
        count++;
      }
    }
    if (count !== wanted) wrong.push(`- ${e}: declared ${wanted} time(s), seen ${count}`);
  }
  const problems: string[] = [];
  if (left.length) {
    problems.push('Content-Security-Policy violations in this test (decision 186):');
    for (const v of left) problems.push(`- ${declaration(v)} (seen by ${v.seenBy === 'event' ? "the page's securitypolicyviolation event" : "Chromium's console message"})`);
  }
  if (wrong.length) problems.push('Declared violations (expectedCspViolations) not seen as declared:', ...wrong);
  return problems;
}

let current: CspWatch | null = null;
const watched = new WeakSet<BrowserContext>();

/** Starts collecting for a test: every watched context reports to it until `endCspWatch`. */
export function beginCspWatch(): CspWatch {
  current = new CspWatch();
  return current;
}

export function endCspWatch(): void {
  current = null;
}

/** Lets each open page of a context deliver what it has seen (its events reach us through a binding). */
export async function settleCspReports(context: BrowserContext): Promise<void> {
  await Promise.all(
    context.pages().map(async (page) => {
      if (page.isClosed()) return;
      let timer: NodeJS.Timeout | undefined;
      // Bounded: a page stuck behind a dialog never answers, and the check must still run.
      const bound = new Promise<void>((resolve) => (timer = setTimeout(resolve, 2_000)));
      const settled = page.evaluate(() => new Promise<void>((resolve) => setTimeout(() => setTimeout(resolve, 0), 0))).catch(() => undefined);
      await Promise.race([settled, bound]);
      clearTimeout(timer);
    }),
  );
}

/**
 * Watches a browser context: Chromium's console messages of refusals (also with JavaScript off)
 * and, through an init script and a binding, the `securitypolicyviolation` event of every document
 * of every page and frame.
 */
export async function watchCsp(context: BrowserContext): Promise<void> {
  current?.contexts.add(context);
  if (watched.has(context)) return;
  watched.add(context);
  context.on('console', (message: ConsoleMessage) => {
    const page = message.page();
    const violation = violationOfConsoleText(message.text(), page?.url() ?? message.location().url);
    if (violation) current?.addConsole({ ...violation, source: page });
  });
  // A context the test closes itself: what its pages have seen is delivered first.
  const close = context.close.bind(context);
  context.close = async (...args: Parameters<BrowserContext['close']>) => {
    await settleCspReports(context);
    return close(...args);
  };
  await context.exposeBinding(BINDING, ({ page }, raw: unknown) => {
    const r = (raw ?? {}) as Record<string, unknown>;
    const text = (key: string) => (typeof r[key] === 'string' ? (r[key] as string) : '');
    current?.addEvent({
      directive: text('directive').slice(0, 100) || 'unknown',
      blocked: cutAddress(text('blocked')),
      page: cutAddress(text('document') || page.url()),
      seenBy: 'event',
      source: page,
    });
  });
  await context.addInitScript((binding) => {
    document.addEventListener(
      'securitypolicyviolation',
      (e) => {
        const report = (window as unknown as Record<string, ((v: unknown) => Promise<unknown>) | undefined>)[binding];
        report?.({ directive: e.effectiveDirective || e.violatedDirective, blocked: e.blockedURI, document: e.documentURI })?.catch(() => undefined);
      },
      true,
    );
  }, BINDING);
}

/** Contexts and pages a test opens with `browser.newContext()` or `browser.newPage()` are watched too. */
export function watchBrowserCsp(browser: Browser): void {
  const newContext = browser.newContext.bind(browser);
  browser.newContext = async (...args: Parameters<Browser['newContext']>) => {
    const context = await newContext(...args);
    await watchCsp(context);
    return context;
  };
  const newPage = browser.newPage.bind(browser);
  browser.newPage = async (...args: Parameters<Browser['newPage']>) => {
    const page = await newPage(...args);
    // Its first document is about:blank; the binding and init script serve the ones it goes to.
    await watchCsp(page.context());
    return page;
  };
}
