// npm run admin:create -- --email ada@example.com --name "Ada Obi"
// Creates the first (or another) admin. The password is typed at a hidden prompt, or given in
// ADMIN_PASSWORD for scripts. Same database selection as the server (DATABASE_URL or embedded).
import { parseArgs } from 'node:util';
import { createInterface } from 'node:readline';
import { AppError } from '../../../common/errors.ts';
import { PATHS } from '../../../common/paths.ts';
import { withApp } from '../../cli-support.ts';
import { createAdminAccount } from './admin-accounts.service.ts';

/** Reads a line without echoing it (a password); from a pipe it reads the next line as it is. */
function askHidden(question: string): Promise<string> {
  return new Promise((resolve) => {
    const rl = createInterface({ input: process.stdin, output: process.stdout, terminal: process.stdin.isTTY });
    if (process.stdin.isTTY) {
      const write = (rl as unknown as { _writeToOutput: (s: string) => void })._writeToOutput;
      (rl as unknown as { _writeToOutput: (s: string) => void })._writeToOutput = (s: string) => {
        if (s.includes(question)) write.call(rl, s);
      };
    }
    rl.question(question, (answer) => {
      rl.close();
      if (process.stdin.isTTY) process.stdout.write('\n');
      resolve(answer);
    });
  });
}

function ask(question: string): Promise<string> {
  return new Promise((resolve) => {
    const rl = createInterface({ input: process.stdin, output: process.stdout });
    rl.question(question, (answer) => {
      rl.close();
      resolve(answer.trim());
    });
  });
}

const { values } = parseArgs({ options: { email: { type: 'string' }, name: { type: 'string' } } });
const email = values.email ?? process.env.ADMIN_EMAIL ?? (await ask('Admin e-mail: '));
const name = values.name ?? process.env.ADMIN_NAME ?? (await ask('Admin name: '));
let password = process.env.ADMIN_PASSWORD;
if (!password) {
  password = await askHidden('Password (at least 12 characters): ');
  const again = await askHidden('Password again: ');
  if (again !== password) {
    console.error('The two passwords are not the same. Nothing was created.');
    process.exit(1);
  }
}

try {
  const admin = await withApp(async (app) => {
    const created = await createAdminAccount(app, { email, name, password: password! });
    return { ...created, loginUrl: `${new URL(app.config.publicUrl).origin}${PATHS.adminLogin}`, mfa: app.config.adminMfaRequired };
  });
  console.log(`Admin created: ${admin.name} <${admin.email}>`);
  console.log(`Sign in at ${admin.loginUrl}`);
  if (admin.mfa) console.log('At the first sign-in you will set up an authenticator app (two-step verification).');
  process.exit(0);
} catch (err) {
  if (!(err instanceof AppError)) {
    console.error(err);
    process.exit(1);
  }
  // Refusals say what to do next (decision 161).
  const next =
    err.code === 'CONFLICT'
      ? 'Nothing was created. Use another e-mail address, or reset that account\'s password with "Forgot password?" on the admin login.'
      : 'Nothing was created. Run the command again with a valid value.';
  console.error(`${err.message}\n${next}`);
  process.exit(1);
}
