import fc from 'fast-check';
import type { z } from 'zod';
import { describe, expect, it } from 'vitest';
import { BLOG_CATEGORIES, blogPostFieldsSchema } from './blog.ts';
import { chatHandoffSchema } from './chat.ts';
import { createClientBodySchema } from './clients.ts';
import { contactMessageFieldsSchema } from './contact.ts';
import { sendMessageBodySchema } from './messages.ts';
import { newsletterIssueContentSchema } from './newsletter.ts';
import { createProjectBodySchema } from './projects.ts';
import { createReportFieldsSchema } from './reports.ts';
import { setupAdminBodySchema } from './setup.ts';
import { disguisedTextMessage, disguisingCharacter, withoutDisguisingCharacters } from './single-line.ts';
import { createTimelineBodySchema } from './timelines.ts';
import { vendorApplicationFieldsSchema } from './vendors.ts';
import { VENDOR_REQUIRED_FIELDS } from '../../tests/helpers/vendor-fields.ts';

// Decision 195: every single-line name and title refuses line breaks, invisible characters and
// text-direction controls; long texts keep them.

const ID = '6f1c2a1e-7d4b-4c55-9a31-1b2c3d4e5f60';
const MESSAGE_PREFIX = 'must not contain line breaks, invisible characters or text-direction controls';

/** Each single-line field of each domain: its schema, a valid object around it, and where the field is. */
const FIELDS: { name: string; schema: z.ZodType; base: Record<string, unknown>; path: (string | number)[] }[] = [];
function add(name: string, schema: z.ZodType, base: Record<string, unknown>, paths: (string | number)[][]) {
  expect(schema.safeParse(base).success, name).toBe(true);
  for (const path of paths) FIELDS.push({ name: `${name} ${path.join('.')}`, schema, base, path });
}
const vendorBase = VENDOR_REQUIRED_FIELDS;
add('client', createClientBodySchema, { name: 'Ada Obi', email: 'ada@example.ng' }, [['name']]);
add('project', createProjectBodySchema, { name: 'Yard', code: 'Y-1', clientId: ID, budget: '1000' }, [['name'], ['code']]);
add('timeline', createTimelineBodySchema, { projectId: ID, projectTitle: 'Plan', tasks: [{ task: 'Survey', month: '2026-05' }] }, [['projectTitle'], ['tasks', 0, 'task']]);
add('report', createReportFieldsSchema, { date: '2026-11-20', projectId: ID, project: 'Yard', tasks: 'Dug', progress: 'Some' }, [['project'], ['projectCode'], ['team']]);
add('newsletter issue', newsletterIssueContentSchema, { subject: 'News', body: 'Hello', idempotencyKey: ID }, [['subject']]);
add('message', sendMessageBodySchema, { subject: 'Hello', text: 'Hi', projectId: ID }, [['subject']]);
add('blog post', blogPostFieldsSchema, { title: 'Yard', author: 'Ada', category: BLOG_CATEGORIES[0], excerpt: 'E', content: 'C' }, [['title'], ['author']]);
add('first admin', setupAdminBodySchema, { token: 'x'.repeat(20), name: 'Ada', email: 'ada@example.ng', password: 'correct horse battery staple' }, [['name']]);
add('contact', contactMessageFieldsSchema, { name: 'Ada', email: 'ada@example.ng', message: 'Hello' }, [['name'], ['phone'], ['company']]);
add('chat hand-off', chatHandoffSchema, { name: 'Ada', email: 'ada@example.ng' }, [['name'], ['phone']]);
add('vendor', vendorApplicationFieldsSchema, vendorBase, [
  ['companyName'],
  ['companyPhone'],
  ['website'],
  ['contactPersonName'],
  ['contactPersonPhone'],
  ['businessType'],
  ['taxId'],
  ['registrationNumber'],
]);

function withValue(base: Record<string, unknown>, path: (string | number)[], value: string): unknown {
  const copy = structuredClone(base) as Record<string | number, unknown>;
  let at: Record<string | number, unknown> = copy;
  for (const key of path.slice(0, -1)) at = at[key] as Record<string | number, unknown>;
  at[path[path.length - 1]] = value;
  return copy;
}
/** The disguise refusal the schema gives for this field, or null. */
function refusal(field: (typeof FIELDS)[number], value: string): string | null {
  const result = field.schema.safeParse(withValue(field.base, field.path, value));
  if (result.success) return null;
  const issue = result.error.issues.find((i) => i.message.includes(MESSAGE_PREFIX) && i.path.join('.') === field.path.join('.'));
  return issue?.message ?? null;
}

/** Characters a name meets: letters of several scripts, marks, emoji, spaces, and the disguising ones. */
const NAME_CHAR = fc.constantFrom(
  ...['a', 'Z', 'é', 'ọ', '\u0300', ' ', '-', '.', '1', 'ب', 'ی', 'क', '्', 'ष', '👨', '👩', '\ufe0f', 'Ω', 'д'],
  ...['\u200c', '\u200d', '\u200b', '\u200e', '\u200f', '\u202a', '\u202e', '\u2066', '\u2069', '\u061c', '\ufeff', '\u00ad', '\u2060', '\u3164', '\n', '\r', '\t', '\u2028', '\u{e0041}'],
);
const NAME = fc.array(NAME_CHAR, { maxLength: 12 }).map((chars) => chars.join(''));

describe('single-line names and titles', () => {
  it('refuses right-to-left overrides, isolates, direction marks, zero-width and other invisible characters, and line breaks', () => {
    for (const s of ['Acme\u202Egnp.exe', 'Acme\u202Dx', 'Ac\u200Bme', 'Ac\u200Dme', '\u2066Acme\u2069', 'Acme\u200E', 'Acme\u200F', 'Ac\u2060me', 'Ac\uFEFFme', 'A\nB', 'A\tB', 'A\u2028B', '\u3164', 'Ac\u00ADme', 'x\u{E0041}', '\u200DAcme'])
      expect(disguisingCharacter(s), JSON.stringify(s)).not.toBeNull();
  });

  it('keeps names as languages write them: accents, Ajami and Persian joiners, Indic conjuncts, emoji', () => {
    for (const s of ['Adébáyọ̀ Ọlálékan', 'Chukwuemeka Nwó-Ezè', 'می\u200Cخواهم', 'क्\u200Dष', '👨\u200D👩\u200D👧', '❤️\u200D🔥', 'Ωmega Ltd', "O'Neil & Sons (Nig.) Ltd"])
      expect(disguisingCharacter(s), JSON.stringify(s)).toBeNull();
  });

  it('names the refused character, since it cannot be seen', () => {
    expect(refusal(FIELDS.find((f) => f.name === 'vendor companyName')!, 'Acme\u202Egnp.exe')).toBe(disguisedTextMessage('The company name field', '\u202E'));
    expect(disguisedTextMessage('Name', '\u202E')).toBe(`Name ${MESSAGE_PREFIX} (found U+202E)`);
    expect(disguisedTextMessage('Name', '\u{E0041}')).toContain('(found U+E0041)');
  });

  it.each(FIELDS.map((f) => [f.name, f] as const))('%s: refused exactly when the trimmed value holds a disguising character', (_name, field) => {
    expect(refusal(field, ' Acme\u202Egnp.exe ')).not.toBeNull();
    expect(refusal(field, 'Adébáyọ̀ Ọlálékan')).toBeNull();
    fc.assert(
      fc.property(NAME, (value) => {
        expect(refusal(field, value) !== null).toBe(disguisingCharacter(value.trim()) !== null);
      }),
      { numRuns: 150 },
    );
  });

  it('can remove them instead, from a name that comes from outside (news): what is left holds none, and a clean name is kept as it is', () => {
    expect(withoutDisguisingCharacters(' Port \u202Efdp.exe\u202C\nnews ')).toBe('Port fdp.exe news');
    fc.assert(
      fc.property(NAME, (value) => {
        const cleaned = withoutDisguisingCharacters(value);
        expect(disguisingCharacter(cleaned)).toBeNull();
        if (disguisingCharacter(value) === null && !/\s/.test(value)) expect(cleaned).toBe(value);
      }),
      { numRuns: 1000 },
    );
  });

  it('leaves long texts alone: a message, a description, an excerpt may hold direction marks and line breaks', () => {
    const rtl = 'سلام\u200F\nLine two \u2067עברית\u2069';
    expect(sendMessageBodySchema.safeParse({ text: rtl, projectId: ID }).success).toBe(true);
    expect(createProjectBodySchema.safeParse({ name: 'Yard', code: 'Y-1', clientId: ID, budget: '1000', description: rtl }).success).toBe(true);
    expect(contactMessageFieldsSchema.safeParse({ name: 'Ada', email: 'ada@example.ng', message: rtl }).success).toBe(true);
    expect(vendorApplicationFieldsSchema.safeParse({ ...vendorBase, companyAddress: `12 Marina\nLagos ${rtl}` }).success).toBe(true);
  });
});
