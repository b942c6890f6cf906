import { describe, expect, it } from 'vitest';
import { MESSAGE_EDIT_WINDOW_MS, replySubject, withinEditWindow } from './messages.ts';

describe('replySubject', () => {
  it("quotes the subject once, however long the exchange", () => {
    expect(replySubject({ subject: 'Delivery window', text: 'x' })).toBe('Re: Delivery window');
    expect(replySubject({ subject: 'Re: Delivery window', text: 'x' })).toBe('Re: Delivery window');
    expect(replySubject({ subject: 'RE: re:Delivery window', text: 'x' })).toBe('Re: Delivery window');
  });

  it('uses the first line of a message without a subject, and stays within the subject limit', () => {
    expect(replySubject({ subject: '  ', text: 'Gate opens at 8\nSecond line' })).toBe('Re: Gate opens at 8');
    expect(replySubject({ subject: 'a'.repeat(300), text: '' }).length).toBe(200);
  });
});

describe('withinEditWindow', () => {
  it('is open until 15 minutes after sending, not at the 15th minute', () => {
    const createdAt = '2026-11-26T09:00:00.000Z';
    const sent = Date.parse(createdAt);
    expect(withinEditWindow({ createdAt }, sent + MESSAGE_EDIT_WINDOW_MS - 1)).toBe(true);
    expect(withinEditWindow({ createdAt }, sent + MESSAGE_EDIT_WINDOW_MS)).toBe(false);
  });
});
