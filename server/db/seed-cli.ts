// npm run db:seed: demo admin and demo client for local use, with their credentials printed.
// Refused with NODE_ENV=production. Same database selection as the server (DATABASE_URL or embedded;
// the embedded database cannot be open twice, so stop the server first).
import { PATHS } from '../../common/paths.ts';
import { withApp } from '../cli-support.ts';
import { seedDatabase } from './seed.ts';

if (process.env.NODE_ENV === 'production') {
  console.error('db:seed creates demo accounts with known passwords and is refused when NODE_ENV=production.');
  process.exit(1);
}

try {
  const { result, origin, mfa } = await withApp(async (app) => ({
    result: await seedDatabase(app),
    origin: new URL(app.config.publicUrl).origin,
    mfa: app.config.adminMfaRequired,
  }));
  console.log('Demo accounts (passwords are new on every run):');
  console.log(`  Admin   ${origin}${PATHS.adminLogin}`);
  console.log(`          email ${result.admin.login}   password ${result.admin.password}`);
  if (mfa) console.log('          (ADMIN_MFA_REQUIRED is on: the first sign-in sets up an authenticator app)');
  console.log(`  Client  ${origin}${PATHS.clientLogin}`);
  console.log(`          username ${result.client.login}   password ${result.client.password}`);
  for (const line of result.report) console.log(`  ${line}`);
  process.exit(0);
} catch (err) {
  console.error(err instanceof Error ? err.message : err);
  process.exit(1);
}
