import type pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { migratedWithData } from '../../tests/helpers/migration-before.ts';
import { SECTION_SEEDS } from '../../common/content/section-seeds.ts';

// Migration 0035 (issue 45, decision 300) from the schema before it, with published content that
// an editor saved when any scheme passed: the links that are plainly no web links leave the
// published documents, every other field of the record stays, and a clean section is not touched.

const company = {
  ...SECTION_SEEDS.company,
  social: { facebook: 'javascript:window.x=1;document.title="pwned"', twitter: 'https://x.example/kora', whatsapp: '  JaVaScRiPt:alert(1)' },
};
const [first, second, ...others] = SECTION_SEEDS.team.members;
const team = {
  members: [
    { ...first, website: 'data:text/html,<script>alert(1)</script>', linkedin: 'https://www.linkedin.com/in/first', twitter: 'java\tscript:alert(1)', whatsapp: 'https:/evil.example' },
    { ...second, website: 'vbscript:msgbox(1)', linkedin: '\u0001javascript:alert(1)' },
    ...others,
  ],
};
const revision = '00000000-0000-4000-8000-000000000001';

let documents: (section: string) => Promise<Record<string, unknown>>;
let close: () => Promise<void>;

beforeAll(async () => {
  let db: pg.Client;
  ({ db, close } = await migratedWithData('0035_unsafe_links', 'unsafe_links', async (before) => {
    const insert = (section: string, document: unknown) =>
      before.query(`insert into site_content_published (section, document, revision_id, published_by_label) values ($1, $2, $3, 'Ada Editor')`, [section, JSON.stringify(document), revision]);
    await insert('company', company);
    await insert('team', team);
    await insert('footer', SECTION_SEEDS.footer);
  }));
  documents = async (section) => (await db.query(`select document from site_content_published where section = $1`, [section])).rows[0].document as Record<string, unknown>;
});
afterAll(() => close?.());

describe('migration 0035 from the schema before it, with unsafe links published', () => {
  it("drops the company's social links that are no web links and keeps the rest of the section", async () => {
    const { social, ...rest } = await documents('company');
    expect(social).toEqual({ twitter: 'https://x.example/kora' });
    const { social: _social, ...before } = company;
    expect(rest).toEqual(before);
  });

  it("drops each team member's unsafe links, keeping the member, the order and the good links", async () => {
    const after = (await documents('team')) as typeof team;
    const { website: _w1, linkedin: _l1, twitter: _t1, whatsapp: _wa1, ...firstRest } = team.members[0];
    expect(after.members[0]).toEqual({ ...firstRest, linkedin: 'https://www.linkedin.com/in/first' });
    const { website: _w2, linkedin: _l2, ...secondRest } = team.members[1];
    expect(after.members[1]).toEqual(secondRest);
    expect(after.members.slice(2)).toEqual(others);
    expect(after.members.map((m) => m.name)).toEqual(team.members.map((m) => m.name));
  });

  it('leaves a section without links as it was', async () => {
    expect(await documents('footer')).toEqual(SECTION_SEEDS.footer);
  });
});
