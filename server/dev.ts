// `npm run dev`: the same process as `npm start` (embedded PostgreSQL, migrations, API), with the
// web pages served from the sources through Vite, so edits under app/ show without a restart.
import { startServer } from './start.ts';

if (process.env.NODE_ENV === 'production') {
  console.error('npm run dev serves the sources through Vite; production runs `npm start`.');
  process.exit(1);
}
// On this machine only unless HOST says otherwise: Vite's dev server answers with the project's files.
process.env.HOST ||= '127.0.0.1';

await startServer({ web: 'vite' });
