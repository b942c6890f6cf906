import os from 'node:os';
import path from 'node:path';
import { defineConfig, devices } from '@playwright/test';

// Several runs may share a machine (CI, a developer's second checkout): ports and folders are settable.
const PORT = Number(process.env.E2E_PORT ?? 3210);
const PG_PORT = Number(process.env.E2E_PG_PORT ?? 54410);
const DATA_DIR = process.env.E2E_DATA_DIR ?? path.join(os.tmpdir(), `portal-e2e-${PORT}`);
export const E2E_BASE_URL = `http://127.0.0.1:${PORT}`;
// The local SMTP server of the browser tests (tests/e2e/smtp-global-setup.ts) and where it keeps what arrives.
export const E2E_SMTP_PORT = Number(process.env.E2E_SMTP_PORT ?? PORT + 20000);
export const E2E_MAIL_DIR = path.join(os.tmpdir(), `portal-e2e-mail-${PORT}`);
// The local stand-in for the generative service of the support chat (tests/e2e/gemini-global-setup.ts).
export const E2E_GEMINI_PORT = Number(process.env.E2E_GEMINI_PORT ?? PORT + 21000);
// The local news service of the browser tests (tests/e2e/news-global-setup.ts).
export const E2E_NEWS_PORT = Number(process.env.E2E_NEWS_PORT ?? PORT + 22000);
// The local stand-in for Paystack (tests/e2e/paystack-global-setup.ts): its API and hosted checkout.
export const E2E_PAYSTACK_PORT = Number(process.env.E2E_PAYSTACK_PORT ?? PORT + 23000);
export const E2E_PAYSTACK_SECRET = 'sk_test_e2e_fake_paystack_key';
// Decision 177: the server's whole log (tests/e2e/start-server.ts) and the secrets the tests used
// (tests/e2e/secret-recorder.ts); the run's last step greps the one for the other.
export const E2E_SERVER_LOG = path.join(os.tmpdir(), `portal-e2e-server-${PORT}.log`);
export const E2E_SECRETS_FILE = path.join(os.tmpdir(), `portal-e2e-secrets-${PORT}.jsonl`);

const BROWSER = { ...devices['Desktop Chrome'], channel: undefined };
const PUBLISHING_SPECS = ['site-content.spec.ts', 'site-publish.spec.ts', 'website-editors.spec.ts', 'website-story.spec.ts'];

export default defineConfig({
  testDir: 'tests/e2e',
  testMatch: '**/*.spec.ts',
  fullyParallel: true,
  workers: 2,
  // On CI one retry, so a browser test that a loaded machine made miss a deadline does not sink the
  // whole run; Playwright then prints it as "flaky", and the issue note must report it (decision 009).
  retries: process.env.CI ? 1 : 0,
  timeout: 60_000,
  expect: { timeout: 10_000 },
  reporter: [['list']],
  globalSetup: [
    './tests/e2e/global-setup.ts',
    './tests/e2e/smtp-global-setup.ts',
    './tests/e2e/gemini-global-setup.ts',
    './tests/e2e/news-global-setup.ts',
    './tests/e2e/paystack-global-setup.ts',
    // Its teardown fails the run when a secret a test used is in the server's log (decision 177).
    './tests/e2e/secrets-global-setup.ts',
  ],
  use: {
    baseURL: E2E_BASE_URL,
    trace: 'retain-on-failure',
    launchOptions: {
      executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
      args: [
        '--headless',
        '--no-sandbox',
        '--disable-gpu',
        '--disable-quic',
        '--no-first-run',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
      ],
    },
  },
  // Specs that publish website content change what every public page shows on the shared server
  // (decision 289), so they never run beside the others: after them, one at a time, each putting the
  // starting content back at its end. `--no-deps` runs one of them alone.
  projects: [
    { name: 'chromium', testIgnore: PUBLISHING_SPECS.map((spec) => `**/${spec}`), use: BROWSER },
    ...PUBLISHING_SPECS.map((spec, i) => ({
      name: `publishes-${i + 1}`,
      testMatch: `**/${spec}`,
      dependencies: [i === 0 ? 'chromium' : `publishes-${i}`],
      use: BROWSER,
    })),
  ],
  webServer: {
    // A fresh data directory per run: the embedded PostgreSQL starts empty and is migrated.
    command: 'node --import tsx tests/e2e/start-server.ts',
    url: `${E2E_BASE_URL}/api/health`,
    timeout: 120_000,
    reuseExistingServer: false,
    // SIGTERM lets the server stop its embedded PostgreSQL (which runs detached) before it exits.
    gracefulShutdown: { signal: 'SIGTERM', timeout: 15_000 },
    stdout: 'ignore',
    stderr: 'pipe',
    env: {
      NODE_ENV: 'test',
      PORT: String(PORT),
      HOST: '127.0.0.1',
      DATA_DIR,
      EMBEDDED_PG_PORT: String(PG_PORT),
      // Everything the server logs, to a file: the end of the run greps it for secrets (decision 177).
      LOG_LEVEL: 'debug',
      E2E_SERVER_LOG,
      PUBLIC_URL: E2E_BASE_URL,
      BUILD_DIR: process.env.BUILD_DIR ?? 'build',
      E2E_TEST_HOOKS: '1',
      SMTP_URL: `smtp://127.0.0.1:${E2E_SMTP_PORT}`,
      GEMINI_API_KEY: 'e2e-fake-gemini-key',
      GEMINI_API_URL: `http://127.0.0.1:${E2E_GEMINI_PORT}`,
      // Room for the chat spec's slow first words on a loaded machine.
      GEMINI_FIRST_CHUNK_TIMEOUT_MS: '20000',
      NEWS_API_KEY: 'e2e-news-key',
      NEWS_API_URL: `http://127.0.0.1:${E2E_NEWS_PORT}/v2/everything`,
      PAYSTACK_SECRET_KEY: E2E_PAYSTACK_SECRET,
      PAYSTACK_API_URL: `http://127.0.0.1:${E2E_PAYSTACK_PORT}`,
    },
  },
});
