import fc from 'fast-check';
import { z } from 'zod';
import { describe, expect, it } from 'vitest';
import { contactMessageFieldsSchema } from './contact.ts';
import { CONTACT_FORM_RULES } from './contact-form.ts';
import { checkForm, EMAIL_PATTERN, type FieldRule } from './form-check.ts';
import { VENDOR_FORM_RULES, VENDOR_TEXT_FIELDS } from './vendor-form.ts';
import { vendorApplicationFieldsSchema } from './vendors.ts';
import { VENDOR_REQUIRED_FIELDS } from '../../tests/helpers/vendor-fields.ts';

// Decision 144: the public forms check their fields in the browser with checkForm and a table of
// rules, not with zod; the zod schemas stay the source of truth on the server. These properties
// prove the two agree on every value a form can hold (strings): same answer, same first problem
// (field and words), same data.

const SPACE = fc.constantFrom('', ' ', '  ', '\t', '\n', '\u00a0', '\u2028', '\ufeff', '\u3000');
const DISGUISE = fc.constantFrom('a', 'é', ' ', 'ب', '\u200c', '\u200d', '\u200b', '\u200e', '\u202e', '\u2066', '\u2069', '\ufeff', '\u3164', '\n', '\t', '\u{e0041}');
const LINKS = ['https://acme.example', 'HTTP://Acme.Example/a?b#c', 'JaVaScRiPt:alert(1)', 'java\tscript:x', 'data:text/html,x', 'vbscript:x', 'https://user:pw@x.ng', 'https:/x.ng', '//x.ng', 'www.acme.ng', 'mailto:a@b.ng', 'tel:+2348000000000', '\u0001javascript:x', 'https://a.ng/\u200b'];
const padded = (inner: fc.Arbitrary<string>) => fc.tuple(SPACE, inner, SPACE).map(([a, s, b]) => `${a}${s}${b}`);

/** Values a field of this rule can meet: empty, blank, any text, addresses good and bad, lengths around the limit. */
function valueFor(rule: FieldRule): fc.Arbitrary<string> {
  if ('oneOf' in rule) return fc.oneof(fc.constantFrom('', ' ', 'Yes', 'No', 'yes', ' Yes', 'No ', 'Maybe'), fc.string({ maxLength: 4 }));
  const aroundMax = fc.integer({ min: Math.max(0, rule.max - 3), max: rule.max + 3 });
  return fc.oneof(
    SPACE,
    padded(fc.string({ maxLength: 30 })),
    padded(fc.string({ maxLength: 12, unit: 'binary' })),
    // Names with and without the characters single-line fields refuse (decision 195).
    padded(fc.array(DISGUISE, { maxLength: 8 }).map((chars) => chars.join(''))),
    padded(fc.emailAddress()),
    padded(fc.constantFrom('a@b', 'a@b.c', 'a@b.co', 'a.b@c.de', '.a@b.cd', 'a..b@c.de', 'a@-b.cd', "o'neil@x.ng", 'a+b@x.ng', 'x@y.com.', '@b.cd', 'a@b.c1')),
    // Web addresses, and links that are no web address (issue 45, decision 300).
    padded(fc.webUrl({ withQueryParameters: true, withFragments: true })),
    padded(fc.constantFrom(...LINKS)),
    padded(aroundMax.map((n) => 'a'.repeat(n))),
    padded(aroundMax.map((n) => `${'b'.repeat(Math.max(1, n - 9))}@mail.com`)),
  );
}

function valuesFor<K extends string>(rules: Record<K, FieldRule>): fc.Arbitrary<Record<K, string>> {
  const fields = Object.fromEntries(Object.entries<FieldRule>(rules).map(([k, rule]) => [k, valueFor(rule)]));
  return fc.record(fields) as unknown as fc.Arbitrary<Record<K, string>>;
}

function expectSameAnswer<K extends string>(rules: Record<K, FieldRule>, schema: z.ZodType, values: Record<K, string>) {
  const byZod = schema.safeParse(values);
  const byRules = checkForm(rules, values);
  if (byZod.success) {
    expect(byRules).toEqual({ success: true, data: byZod.data });
  } else {
    const first = byZod.error.issues[0];
    expect(byRules).toEqual({ success: false, field: first.path[0], message: first.message });
  }
}

describe('the browser check of the public forms agrees with their zod schemas', () => {
  it('uses zod’s own e-mail pattern', () => {
    expect(EMAIL_PATTERN.source).toBe(z.regexes.email.source);
    expect(EMAIL_PATTERN.flags).toBe(z.regexes.email.flags);
  });

  it('checks the fields of each schema, in its order', () => {
    expect(Object.keys(CONTACT_FORM_RULES)).toEqual(Object.keys(contactMessageFieldsSchema.shape));
    expect(Object.keys(VENDOR_FORM_RULES)).toEqual(Object.keys(vendorApplicationFieldsSchema.shape));
    expect(VENDOR_TEXT_FIELDS).toEqual(Object.keys(vendorApplicationFieldsSchema.shape));
  });

  it('contact form: same answer, first problem and data as contactMessageFieldsSchema', () => {
    fc.assert(fc.property(valuesFor(CONTACT_FORM_RULES), (values) => expectSameAnswer(CONTACT_FORM_RULES, contactMessageFieldsSchema, values)), { numRuns: 400 });
  });

  it('vendor registration: same answer, first problem and data as vendorApplicationFieldsSchema', () => {
    fc.assert(fc.property(valuesFor(VENDOR_FORM_RULES), (values) => expectSameAnswer(VENDOR_FORM_RULES, vendorApplicationFieldsSchema, values)), { numRuns: 400 });
  });

  it('agrees on hand-picked forms: empty, each problem alone, and a good one', () => {
    const goodContact = { name: ' Ada ', email: ' ada@example.ng ', phone: '', company: ' ', message: ' Hello ' };
    const contacts = [
      { name: '', email: '', phone: '', company: '', message: '' },
      goodContact,
      { ...goodContact, email: 'ada@example' },
      { ...goodContact, email: `${'a'.repeat(250)}@x.ng` },
      { ...goodContact, phone: '1'.repeat(51) },
      { ...goodContact, company: 'c'.repeat(201) },
      { ...goodContact, message: 'm'.repeat(5001) },
      { ...goodContact, message: ` ${'m'.repeat(5000)} ` },
      { ...goodContact, name: 'Ada\u202Egnp.exe' },
      { ...goodContact, company: `${'c'.repeat(201)}\u200B` },
      { ...goodContact, message: 'Line one\n\u200Fline two' },
    ];
    for (const values of contacts) expectSameAnswer(CONTACT_FORM_RULES, contactMessageFieldsSchema, values);
    expect(checkForm(CONTACT_FORM_RULES, contacts[0])).toEqual({ success: false, field: 'name', message: 'Please enter your name' });
    expect(checkForm(CONTACT_FORM_RULES, contacts[1])).toMatchObject({ success: true, data: { name: 'Ada', email: 'ada@example.ng', company: '', message: 'Hello' } });

    const empty = Object.fromEntries(VENDOR_TEXT_FIELDS.map((k) => [k, ''])) as Record<(typeof VENDOR_TEXT_FIELDS)[number], string>;
    const goodVendor = {
      ...empty,
      ...VENDOR_REQUIRED_FIELDS,
    };
    const vendors = [
      empty,
      goodVendor,
      { ...goodVendor, contactPersonEmail: 'ada@' },
      { ...goodVendor, contactPersonEmail: '  ' },
      { ...goodVendor, compliant: '' },
      { ...goodVendor, compliant: 'yes' },
      { ...goodVendor, website: 'w'.repeat(301) },
      { ...goodVendor, website: ' https://acme.example/about ' },
      { ...goodVendor, website: '  JaVaScRiPt:alert(1)' },
      { ...goodVendor, website: 'www.acme.ng' },
      { ...goodVendor, bankDetails: ' ' },
      { ...goodVendor, companyName: 'Acme\u202Egnp.exe' },
      { ...goodVendor, contactPersonName: '\u2066Ada\u2069', taxId: '' },
      { ...goodVendor, companyAddress: '12 Marina\nLagos' },
    ];
    for (const values of vendors) expectSameAnswer(VENDOR_FORM_RULES, vendorApplicationFieldsSchema, values);
    expect(checkForm(VENDOR_FORM_RULES, empty)).toEqual({ success: false, field: 'companyName', message: 'Please fill in the company name field' });
    expect(checkForm(VENDOR_FORM_RULES, goodVendor).success).toBe(true);
    expect(checkForm(VENDOR_FORM_RULES, vendors.at(-3)!)).toEqual({
      success: false,
      field: 'companyName',
      message: 'The company name field must not contain line breaks, invisible characters or text-direction controls (found U+202E)',
    });
    expect(checkForm(CONTACT_FORM_RULES, contacts.at(-3)!)).toMatchObject({ success: false, field: 'name' });
    expect(checkForm(VENDOR_FORM_RULES, { ...goodVendor, website: '  JaVaScRiPt:alert(1)' })).toEqual({
      success: false,
      field: 'website',
      message: 'Enter a web address starting with https:// or http://',
    });
  });
});
