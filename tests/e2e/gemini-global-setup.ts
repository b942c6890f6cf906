import { E2E_GEMINI_PORT } from '../../playwright.config.ts';
import { startFakeGeminiServer } from '../helpers/fake-gemini-server.ts';

/**
 * The browser tests' stand-in for the generative service (GEMINI_API_URL in playwright.config.ts).
 * By default it fails (503), so the chat answers from the company's facts; a test scripts other
 * answers for its own question through POST /__script (tests/e2e/chat.spec.ts).
 */
export default async function geminiGlobalSetup() {
  const gemini = await startFakeGeminiServer({ port: E2E_GEMINI_PORT, defaultBehaviour: { kind: 'status', status: 503 } });
  return async () => {
    await gemini.close();
  };
}
