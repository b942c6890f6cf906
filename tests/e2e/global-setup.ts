import { existsSync } from 'node:fs';

export default function globalSetup() {
  const chromium = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
  if (!existsSync(chromium)) {
    throw new Error(`Chromium is missing at ${chromium}: install it with "apt-get install -y chromium" (see .ci/run)`);
  }
}
