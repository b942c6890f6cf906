import { describe, expect, it } from 'vitest';
import type { z } from 'zod';
import { SECTION_SCHEMAS, SECTION_KEYS } from '../content/sections.ts';
import { SECTION_SEEDS } from '../content/section-seeds.ts';
import { LINK_MESSAGES, linkProblem, safeHref, siteLink } from './link-check.ts';
import { linkFields } from './links.ts';
import { vendorApplicationFieldsSchema } from './vendors.ts';
import { VENDOR_REQUIRED_FIELDS } from '../../tests/helpers/vendor-fields.ts';

// Issue 45, decision 300: every link field a person can fill in refuses what is no web link, with a
// field message, through the one schema the forms (in the browser) and the API (on the server) use.

interface LinkFieldCase {
  name: string;
  schema: z.ZodType;
  /** A valid input with `value` at the field. */
  withValue: (value: string) => unknown;
  path: (string | number)[];
}

const company = SECTION_SEEDS.company;
const team = SECTION_SEEDS.team;
const member = (key: string) => (value: string) => ({ members: team.members.map((m, i) => (i === 0 ? { ...m, [key]: value } : m)) });

const FIELDS: LinkFieldCase[] = [
  { name: 'company: website address', schema: SECTION_SCHEMAS.company, withValue: (v) => ({ ...company, siteUrl: v }), path: ['siteUrl'] },
  ...(['facebook', 'twitter', 'whatsapp'] as const).map((key) => ({
    name: `company: social ${key}`,
    schema: SECTION_SCHEMAS.company,
    withValue: (v: string) => ({ ...company, social: { ...company.social, [key]: v } }),
    path: ['social', key],
  })),
  ...(['website', 'linkedin', 'twitter', 'whatsapp'] as const).map((key) => ({
    name: `team member: ${key}`,
    schema: SECTION_SCHEMAS.team,
    withValue: member(key),
    path: ['members', 0, key],
  })),
  {
    name: 'vendor registration: website',
    schema: vendorApplicationFieldsSchema,
    withValue: (v) => ({ ...VENDOR_REQUIRED_FIELDS, website: v }),
    path: ['website'],
  },
];

/** What must never be stored as a link: other schemes, in any case, behind spaces or controls. */
const REFUSED = [
  'javascript:window.x=1;document.title="pwned"',
  'JaVaScRiPt:alert(1)',
  '  JaVaScRiPt:alert(1)',
  '\u0001javascript:alert(1)',
  'java\tscript:alert(1)',
  'java\nscript:alert(1)',
  '\u200bjavascript:alert(1)',
  'data:text/html,<script>alert(1)</script>',
  'DATA:text/html;base64,PHNjcmlwdD5hbGVydCgxKTwvc2NyaXB0Pg==',
  'vbscript:msgbox(1)',
  ' VBScript:msgbox(1)',
  'file:///etc/passwd',
  'ftp://files.example',
  '//evil.example/x',
  'https:/evil.example',
  'http:evil.example',
  'https:\\\\evil.example',
  'https://user:secret@evil.example',
  'https://facebook.com@evil.example',
  'https://exa mple.com',
  'https://example.com/\u202egnp.exe',
  'www.example.com',
  'mailto:ada@example.ng',
  'tel:+2348000000000',
  `https://example.com/${'a'.repeat(2048)}`,
];
const MESSAGES: string[] = Object.values(LINK_MESSAGES);

describe('every link field refuses what is no web link, with a field message', () => {
  it('covers every link field of the website content', () => {
    const tested = FIELDS.filter((f) => f.schema !== vendorApplicationFieldsSchema).map((f) => f.path.map((p) => (typeof p === 'number' ? '*' : p)).join('.'));
    const declared = SECTION_KEYS.flatMap((key) => linkFields(SECTION_SCHEMAS[key]).map((f) => f.path.join('.')));
    expect(declared.sort()).toEqual(tested.sort());
  });

  for (const field of FIELDS) {
    it(`${field.name}: keeps a web address, trimmed`, () => {
      for (const good of ['https://example.com', ' http://example.com/a?b=c#d ', 'HTTPS://WWW.Example.COM/path']) {
        const result = field.schema.safeParse(field.withValue(good));
        expect(result.success, `${good}: ${JSON.stringify(result.error?.issues)}`).toBe(true);
        let value: unknown = result.data;
        for (const key of field.path) value = (value as Record<string | number, unknown>)[key];
        expect(value).toBe(good.trim());
      }
    });

    it(`${field.name}: refuses javascript:, data:, vbscript:, mixed case, leading spaces and controls`, () => {
      for (const bad of REFUSED) {
        const result = field.schema.safeParse(field.withValue(bad));
        expect(result.success, JSON.stringify(bad)).toBe(false);
        const issue = result.error!.issues.find((i) => i.path.join('.') === field.path.join('.'));
        expect(issue, `${JSON.stringify(bad)}: ${JSON.stringify(result.error!.issues)}`).toBeDefined();
        // The vendor field's own rules (one line, at most 300 characters) speak first where they apply.
        expect(issue!.message.startsWith('The website field') || MESSAGES.includes(issue!.message), issue!.message).toBe(true);
      }
    });
  }

  it('names the problem in words people act on', () => {
    expect(linkProblem('javascript:alert(1)')).toBe('Enter a web address starting with https:// or http://');
    expect(linkProblem('java\tscript:alert(1)')).toBe('A web address must not contain spaces, line breaks or invisible characters');
    expect(linkProblem('https://facebook.com@evil.example')).toBe('Enter the web address without a user name or password');
    expect(linkProblem(`https://a.ng/${'x'.repeat(2100)}`)).toBe('The web address is too long (at most 2,048 characters)');
  });
});

describe('safeHref, the renderers’ second line', () => {
  it('hands back a web link trimmed, and nothing for anything else', () => {
    expect(safeHref(' https://example.com/a ')).toBe('https://example.com/a');
    for (const bad of [...REFUSED, undefined, null, 42, {}, '']) expect(safeHref(bad), JSON.stringify(bad)).toBeUndefined();
  });

  it('lets e-mail and phone links through only where the code makes them', () => {
    expect(safeHref('mailto:ada@example.ng', 'contact')).toBe('mailto:ada@example.ng');
    expect(safeHref('mailto:ada@example.ng?subject=Hello%20there', 'contact')).toBe('mailto:ada@example.ng?subject=Hello%20there');
    expect(safeHref('tel:+2348000000101', 'contact')).toBe('tel:+2348000000101');
    expect(safeHref('https://example.com', 'contact')).toBe('https://example.com');
    for (const bad of ['mailto:', 'mailto:javascript:alert(1)', 'tel:javascript:alert(1)', 'tel:', ' JaVaScRiPt:alert(1)', 'data:,x']) {
      expect(safeHref(bad, 'contact'), bad).toBeUndefined();
    }
  });

  it('makes site links absolute on a web address only', () => {
    expect(siteLink('https://www.example.ng', '/about')).toBe('https://www.example.ng/about');
    expect(siteLink('https://www.example.ng', '/#organization')).toBe('https://www.example.ng/#organization');
    expect(siteLink('https://www.example.ng', 'https://cdn.example/p.webp')).toBe('https://cdn.example/p.webp');
    expect(siteLink('https://www.example.ng', 'javascript:alert(1)')).toBe('https://www.example.ng/');
    expect(siteLink('javascript:alert(1)//', '/about')).toBe('/about');
    expect(siteLink('  JaVaScRiPt:alert(1)', 'data:text/html,x')).toBe('/');
  });
});
