import { existsSync, readFileSync, rmSync } from 'node:fs';
import { E2E_SECRETS_FILE, E2E_SERVER_LOG } from '../../playwright.config.ts';
import { describeLeaks, findSecretLeaks, readRecordedSecrets } from './secret-leaks.ts';

/**
 * Decision 177: no log line holds a secret. The run starts with no recorded secrets; when it ends,
 * the server's whole log (tests/e2e/start-server.ts) is searched for every secret the tests used
 * (tests/e2e/secret-recorder.ts) and the run fails naming the kind of each one found, never its value.
 */
export default function secretsGlobalSetup() {
  rmSync(E2E_SECRETS_FILE, { force: true });
  return function checkServerLogForSecrets() {
    const secrets = readRecordedSecrets(E2E_SECRETS_FILE);
    // A run filtered to specs that use no secret has nothing to look for.
    if (!secrets.length) return;
    if (!existsSync(E2E_SERVER_LOG)) {
      throw new Error(`The browser tests used ${secrets.length} secret(s), but the server's log ${E2E_SERVER_LOG} is missing, so it could not be checked for them (tests/e2e/start-server.ts writes it).`);
    }
    const leaks = findSecretLeaks(readFileSync(E2E_SERVER_LOG, 'utf8'), secrets);
    if (leaks.length) throw new Error(describeLeaks(leaks, E2E_SERVER_LOG));
    console.log(`Server log checked: none of the ${secrets.length} secret(s) the browser tests used appears in it (decision 177).`);
  };
}
