import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { App } from '../app.ts';
import { startWebTestApp } from '../../tests/helpers/test-app.ts';
import { EMPTY_SERVER_BUILD, standInWebBuild } from '../../tests/helpers/web-build.ts';

// Requests to the server-rendered pages that are not well formed answer 400 in the error shape,
// never 500 (issue 16). A stand-in web build: the checks happen before React Router is called.

const buildDir = standInWebBuild('web-requests-build-', EMPTY_SERVER_BUILD);

let app: App;
let close: () => Promise<void>;
beforeAll(async () => {
  ({ app, close } = await startWebTestApp(buildDir));
});
afterAll(() => close());

describe('malformed page requests', () => {
  it.each(['bad host', 'a/b', 'x@y', 'host:port:extra', '[zz]'])('answers 400 for the Host header %j', async (host) => {
    const res = await app.inject({ method: 'GET', url: '/about', headers: { host } });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({ success: false, code: 'BAD_REQUEST', message: 'The Host header of the request is not valid' });
    expect(res.headers['x-content-type-options']).toBe('nosniff');
  });

  it('answers 400 for a malformed percent-escape in a page address', async () => {
    const res = await app.inject({ method: 'GET', url: '/about%ZZ' });
    expect(res.statusCode).toBe(400);
    expect(res.json().code).toBe('BAD_REQUEST');
  });
});

describe('a malformed API address (GET /api/%ZZ)', () => {
  it('goes through the one error shape with the security headers, without echoing the path', async () => {
    for (const url of ['/api/%ZZ', '/api/messages/%E0%A4%A', '/%ZZ']) {
      const res = await app.inject({ method: 'GET', url });
      expect(res.statusCode).toBe(400);
      expect(res.json()).toEqual({ success: false, code: 'BAD_REQUEST', message: 'The address of the request is not valid' });
      expect(res.body).not.toContain('%');
      expect(res.headers['x-content-type-options']).toBe('nosniff');
      expect(res.headers['content-security-policy']).toContain("default-src 'none'");
      expect(res.headers['x-frame-options']).toBe('DENY');
    }
  });
});
