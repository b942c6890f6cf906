import { E2E_BASE_URL, E2E_PAYSTACK_PORT, E2E_PAYSTACK_SECRET } from '../../playwright.config.ts';
import { startFakePaystack } from '../helpers/fake-paystack.ts';

/**
 * The browser tests' Paystack (issue 26): the e2e web server initialises and verifies transactions
 * through it (PAYSTACK_API_URL in playwright.config.ts), and its hosted checkout page, when paid,
 * sends the signed `charge.success` webhook to the server and the browser back to the portal.
 */
export default async function paystackGlobalSetup() {
  const paystack = await startFakePaystack({ port: E2E_PAYSTACK_PORT, secretKey: E2E_PAYSTACK_SECRET });
  paystack.setWebhookTarget(`${E2E_BASE_URL}/api/paystack/webhook`);
  return async () => {
    await paystack.close();
  };
}
