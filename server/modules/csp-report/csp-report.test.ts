import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../tests/helpers/test-app.ts';
import { CSP_REPORT_MAX_BYTES } from '../../../common/schemas/csp-report.ts';
import { blockedForLog, CSP_REPORT_RATE_LIMIT, cspViolationCount } from './csp-report.routes.ts';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t.close();
});

const ORIGIN = 'http://localhost:3000';
let nextAddress = 10;
/** Each test reports from its own address, so the per-address limit of one does not touch another. */
const address = () => `198.51.100.${nextAddress++}`;

const legacy = (directive: string, blocked: string) =>
  JSON.stringify({ 'csp-report': { 'document-uri': 'http://localhost:3000/portal', 'effective-directive': directive, 'violated-directive': directive, 'blocked-uri': blocked } });

function report(body: string, contentType: string, remoteAddress = address()) {
  return t.app.inject({ method: 'POST', url: '/api/csp-report', remoteAddress, headers: { 'content-type': contentType, origin: ORIGIN }, payload: body });
}

describe('POST /api/csp-report', () => {
  it('accepts a report-uri report (application/csp-report) anonymously, answers 204 and counts it', async () => {
    const before = cspViolationCount(t.app);
    const res = await report(legacy('script-src-elem', 'inline'), 'application/csp-report');
    expect(res.statusCode).toBe(204);
    expect(res.body).toBe('');
    expect(cspViolationCount(t.app)).toBe(before + 1);
  });

  it('accepts a Reporting API batch (application/reports+json) and counts only its CSP violations', async () => {
    const before = cspViolationCount(t.app);
    const batch = [
      { type: 'csp-violation', age: 10, url: 'http://localhost:3000/', body: { effectiveDirective: 'script-src', blockedURL: 'eval', documentURL: 'http://localhost:3000/' } },
      { type: 'csp-violation', age: 12, url: 'http://localhost:3000/', body: { effectiveDirective: 'img-src', blockedURL: 'http://tracker.example/p.gif?id=1' } },
      { type: 'deprecation', age: 3, url: 'http://localhost:3000/', body: { id: 'x' } },
    ];
    const res = await report(JSON.stringify(batch), 'application/reports+json');
    expect(res.statusCode).toBe(204);
    expect(cspViolationCount(t.app)).toBe(before + 2);
  });

  it('refuses a body over 8 KB with 413 and counts nothing', async () => {
    const before = cspViolationCount(t.app);
    const huge = legacy('script-src', `https://cdn.example/${'a'.repeat(CSP_REPORT_MAX_BYTES)}`);
    const res = await report(huge, 'application/csp-report');
    expect(res.statusCode).toBe(413);
    expect(res.json()).toMatchObject({ success: false, code: 'PAYLOAD_TOO_LARGE' });
    expect(cspViolationCount(t.app)).toBe(before);
  });

  it('refuses malformed JSON and bodies of the wrong shape with 400, never echoing them', async () => {
    const before = cspViolationCount(t.app);
    const broken = await report('{"csp-report": <script>', 'application/csp-report');
    expect(broken.statusCode).toBe(400);
    expect(broken.json()).toMatchObject({ success: false });
    expect(broken.body).not.toContain('<script>');
    const wrong = await report(JSON.stringify({ 'csp-report': 'not an object' }), 'application/csp-report');
    expect(wrong.statusCode).toBe(400);
    const tooLongField = await report(legacy('x'.repeat(201), 'inline'), 'application/csp-report');
    expect(tooLongField.statusCode).toBe(400);
    expect(cspViolationCount(t.app)).toBe(before);
  });

  it('refuses a report from another site', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/csp-report',
      remoteAddress: address(),
      headers: { 'content-type': 'application/csp-report', origin: 'https://attacker.example' },
      payload: legacy('script-src', 'inline'),
    });
    expect(res.statusCode).toBe(403);
  });

  it('limits the reports of one address per minute (429 with Retry-After), other addresses unaffected, and lets it report again in the next window', async () => {
    const from = address();
    const answers = await Promise.all(
      Array.from({ length: CSP_REPORT_RATE_LIMIT.limit + 5 }, () => report(legacy('script-src', 'inline'), 'application/csp-report', from)),
    );
    const statuses = answers.map((a) => a.statusCode);
    expect(statuses.filter((s) => s === 204)).toHaveLength(CSP_REPORT_RATE_LIMIT.limit);
    expect(statuses.filter((s) => s === 429)).toHaveLength(5);
    const refused = answers.find((a) => a.statusCode === 429)!;
    expect(refused.json()).toMatchObject({ success: false, code: 'RATE_LIMITED' });
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
    expect((await report(legacy('script-src', 'inline'), 'application/csp-report')).statusCode).toBe(204);
    t.clock.advance(CSP_REPORT_RATE_LIMIT.windowMs);
    expect((await report(legacy('script-src', 'inline'), 'application/csp-report', from)).statusCode).toBe(204);
  });

  it('logs the blocked address without its query string and keeps keywords as they are', () => {
    expect(blockedForLog('https://cdn.example/lib.js?token=secret#x')).toBe('https://cdn.example/lib.js');
    expect(blockedForLog('inline')).toBe('inline');
    expect(blockedForLog('eval')).toBe('eval');
    expect(blockedForLog('data:text/javascript,alert(1)')).toBe('data:');
    expect(blockedForLog(`x\n${'y'.repeat(300)}`)).toHaveLength(200);
    expect(blockedForLog('a\nb')).toBe('a?b');
  });
});

describe('the page policy', () => {
  it('points report-uri and report-to at the endpoint', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/health' });
    expect(res.headers['reporting-endpoints']).toBe('csp="/api/csp-report"');
    const { pagePolicy, prerenderedPagePolicy } = await import('../../plugins/security-headers.ts');
    for (const policy of [pagePolicy('bm9uY2Ugb2YgYSB0ZXN0IQ=='), prerenderedPagePolicy('<html><body></body></html>')]) {
      expect(policy).toContain('report-uri /api/csp-report');
      expect(policy).toContain('report-to csp');
      expect(policy).not.toContain('unsafe-eval');
    }
  });
});
