import { describe, expect, it } from 'vitest';
import { NEWSLETTER_MESSAGES } from '../../common/newsletter.ts';
import { subscriptionRefusal } from './newsletter-form.ts';

// The box reads which field was refused from the error's `details`, not from its message's wording.
describe('subscriptionRefusal', () => {
  it('names a refused address from the details, whatever the message says', () => {
    const body = {
      success: false,
      code: 'VALIDATION_FAILED',
      message: 'The request is not valid',
      details: [{ field: 'body.email', message: NEWSLETTER_MESSAGES.invalidAddress }],
    };
    expect(subscriptionRefusal(body)).toBe('Please enter a valid email address');
  });

  it("does not take a message that merely starts with the field's name for a refused address", () => {
    const body = { success: false, code: 'RATE_LIMITED', message: 'body.email was sent too often; try again later' };
    expect(subscriptionRefusal(body)).toBe('body.email was sent too often; try again later');
  });

  it("says the server's message for other refusals, and the box's own words without one", () => {
    expect(subscriptionRefusal({ success: false, code: 'FORBIDDEN', message: 'This form has expired.' })).toBe('This form has expired.');
    expect(subscriptionRefusal({})).toBe(NEWSLETTER_MESSAGES.failed);
    expect(subscriptionRefusal(null)).toBe(NEWSLETTER_MESSAGES.failed);
  });
});
