import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { App } from '../app.ts';
import { startWebTestApp } from '../../tests/helpers/test-app.ts';
import { fixtureServerBuild, standInWebBuild } from '../../tests/helpers/web-build.ts';
import { notFoundLoaderRuns } from '../../tests/fixtures/not-found-build.tsx';

// Issue 27: every page the server renders gets the same load context (page-context.ts). The kept
// not-found document was rendered with a stand-in logger that had only `debug` and without the
// set-up reader; a not-found loader that used either failed there, and every unknown address was
// then rendered again, request by request.

const buildDir = standInWebBuild('page-context-build-', fixtureServerBuild('tests/fixtures/not-found-build.tsx'));

let app: App;
let close: () => Promise<void>;
beforeAll(async () => {
  ({ app, close } = await startWebTestApp(buildDir));
});
afterAll(() => close());

describe('the load context of the not-found document', () => {
  it('is the full one: a not-found loader that logs at info and reads the set-up state renders once, then is kept', async () => {
    const first = await app.inject({ method: 'GET', url: '/no-such-page' });
    const second = await app.inject({ method: 'GET', url: '/nor-this-one' });
    expect(first.statusCode).toBe(404);
    expect(second.statusCode).toBe(404);
    expect(first.body).toContain('Nothing here (set-up open)');
    expect(second.body).toContain('Nothing here (set-up open)');
    expect(notFoundLoaderRuns.count).toBe(1);
  });
});
