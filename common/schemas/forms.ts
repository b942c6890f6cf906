import '../zod-setup.ts';
import { z } from 'zod';
import { FORM_TOKEN_FIELD, HONEYPOT_FIELD } from '../form-guard.ts';
import { okResponse } from './ok-response.ts';

/** The two guard fields every public form sends along with its own. */
export const formGuardFieldsSchema = z.object({
  [FORM_TOKEN_FIELD]: z.string().max(200).default(''),
  [HONEYPOT_FIELD]: z.string().max(2000).default(''),
});

export const formTokenResponseSchema = okResponse({ token: z.string() });
