// npm run admin:reset-mfa -- --email ada@example.com
// For an admin who lost both the authenticator phone and the recovery codes: turns their second
// factor off and ends all their sessions. Same database selection as the server (DATABASE_URL or
// embedded). With ADMIN_MFA_REQUIRED on, the next sign-in asks them to set up a new authenticator.
import { parseArgs } from 'node:util';
import { AppError } from '../../../common/errors.ts';
import { withApp } from '../../cli-support.ts';
import { resetAdminSecondFactor } from './admin-accounts.service.ts';

const { values } = parseArgs({ options: { email: { type: 'string' } } });
const email = values.email ?? process.env.ADMIN_EMAIL;
if (!email) {
  console.error("Give the admin's e-mail: npm run admin:reset-mfa -- --email ada@example.com");
  process.exit(1);
}

try {
  const result = await withApp(async (app) => ({
    ...(await resetAdminSecondFactor(app, email)),
    required: app.config.adminMfaRequired,
  }));
  console.log(
    result.hadSecondFactor
      ? `Two-step verification turned off for ${result.name} <${result.email}>; their recovery codes and sessions have ended.`
      : `${result.name} <${result.email}> had no two-step verification; their sessions have ended.`,
  );
  console.log(
    result.required
      ? 'At their next sign-in they set up a new authenticator app.'
      : 'They can set up a new authenticator from the Account dialog after signing in.',
  );
  process.exit(0);
} catch (err) {
  console.error(err instanceof AppError ? err.message : err);
  process.exit(1);
}
