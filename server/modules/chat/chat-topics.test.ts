import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { company } from '../../../common/content/company.ts';
import { CHAT_TEXTS } from '../../../common/schemas/chat-texts.ts';
import { chatTurns } from '../../db/schema/chat.ts';
import { createTestApp, createUser, signIn, type TestApp } from '../../../tests/helpers/test-app.ts';
import { ask } from '../../../tests/helpers/chat.ts';

// Issue 21: the offline answerer answers what is asked (contact details, prices, people) whatever
// else the question or the conversation named, and the staff summary counts an answer as answered
// only when it answered the question (decision 215).

let t: TestApp;
let ipCounter = 1;
const freshIp = () => `203.0.113.${ipCounter++}`;
const ORIGIN = 'http://localhost:3000';

beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t.close();
});

/** The bold titles of the facts an offline answer lists, in order. */
const titles = (text: string) => [...text.matchAll(/^- \*\*(.+?)\*\*/gm)].map((m) => m[1]);

describe('questions about contact details, prices and people', () => {
  it('gives the phone after questions about projects, not the projects again', async () => {
    const ip = freshIp();
    const first = await ask(t.app, 'What projects have you done?', { ip });
    await ask(t.app, 'Do you work in Lagos?', { ip, conversationId: first.conversationId });
    const phone = await ask(t.app, 'Thanks, I liked those projects. What is your phone?', { ip, conversationId: first.conversationId });
    expect(phone.outcome).toBe('answered');
    expect(titles(phone.text)).toEqual(['Phone and e-mail']);
    expect(phone.text).toContain(company.phone);
  });

  it('answers a price question with the prices, even when it names a project', async () => {
    for (const q of ['What do you charge for a project?', 'What about prices for projects?', 'How much do you charge?']) {
      const a = await ask(t.app, q, { ip: freshIp() });
      expect(a.outcome, q).toBe('answered');
      expect(titles(a.text)[0], q).toBe('Pricing and payments');
      expect(titles(a.text), q).not.toContain('Our projects');
    }
  });

  it('answers a question about people with the team', async () => {
    for (const q of ['Who is the boss?', 'Who is in charge?', 'Who is your managing director?']) {
      const a = await ask(t.app, q, { ip: freshIp() });
      expect(a.outcome, q).toBe('answered');
      expect(titles(a.text), q).toEqual(['Our team']);
    }
  });

  it('gives the offices for an address and both contact facts when both are asked', async () => {
    expect(titles((await ask(t.app, 'What is your address?', { ip: freshIp() })).text)).toEqual(['Offices and addresses']);
    expect(titles((await ask(t.app, 'Where is your office and what is your email?', { ip: freshIp() })).text)).toEqual([
      'Offices and addresses',
      'Phone and e-mail',
    ]);
  });
});

describe('the staff summary counts only real answers', () => {
  it('lists a question the nearest facts do not answer with the unknown ones, and says so to the visitor', async () => {
    t.clock.set(new Date('2026-12-03T09:00:00Z'));
    const guess = await ask(t.app, 'Do you build rockets?', { ip: freshIp() });
    expect(guess.outcome).toBe('unknown');
    expect(guess.text.startsWith(CHAT_TEXTS.nearestIntro)).toBe(true);
    const [turn] = await t.database.db.select().from(chatTurns).where(eq(chatTurns.conversationId, guess.conversationId!));
    expect(turn.outcome).toBe('unknown');
    const answered = await ask(t.app, 'Which certifications do you hold?', { ip: freshIp() });
    expect(answered.outcome).toBe('answered');

    const admin = await createUser(t, { role: 'admin' });
    const { cookie } = await signIn(t, admin, 'admin');
    const body = (await t.app.inject({ method: 'GET', url: '/api/chat/conversations', headers: { cookie, origin: ORIGIN } })).json();
    const unknown = body.unknownQuestions.map((u: { question: string }) => u.question);
    expect(unknown).toContain('do you build rockets?');
    expect(unknown).not.toContain('which certifications do you hold?');
  });
});
