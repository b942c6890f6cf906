// Writes docs/decisions/README.md, the index of the decision records (number, title, status,
// superseded by), from the records' own title and status lines, and fails on a record without its Context, Decision
// and Consequences sections: `node --import tsx scripts/decisions-index.ts`.
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';

const DIR = new URL('../docs/decisions/', import.meta.url);
const records = readdirSync(DIR)
  .filter((f) => /^\d{3}-.*\.md$/.test(f))
  .sort()
  .map((file) => {
    const text = readFileSync(new URL(file, DIR), 'utf8');
    const [heading = ''] = text.split('\n', 1);
    // The status sentence may wrap onto the next line; it ends at the first blank line.
    const status = /Status:\s*([\s\S]*?)(?:\n\s*\n|$)/.exec(text)?.[1].replace(/\s+/g, ' ').trim() ?? '';
    // Every record gives its context, its decision and their consequences (issue 27).
    const missing = ['Context', 'Decision', 'Consequences'].filter((s) => !new RegExp(`^##+ *${s}\\b[^\\n]*\\n+[^#\\s]`, 'm').test(text));
    return { file, number: file.slice(0, 3), title: heading.replace(/^#\s*\d+\.\s*/, '').trim(), status, missing };
  });
const incomplete = records.filter((r) => r.missing.length > 0);
if (incomplete.length > 0) {
  for (const r of incomplete) console.error(`${r.file}: no ${r.missing.join(', ')} section`);
  process.exit(1);
}

// Whole records superseded ("superseded by 140") and parts of records ("supersedes the last point of
// decision 043", "replaces the Host fallback of 040", "... is superseded by 080").
const supersededBy = new Map<string, string[]>();
const add = (number: string, entry: string) => supersededBy.set(number, [...(supersededBy.get(number) ?? []), entry]);
for (const r of records) {
  const whole = /^superseded by (\d{3})/i.exec(r.status);
  if (whole) add(r.number, whole[1]);
  for (const m of r.status.matchAll(/is superseded by (\d{3})/gi)) add(r.number, `${m[1]} (in part)`);
  for (const clause of r.status.matchAll(/(?:supersedes|replaces)\b[^·;]*/gi)) {
    for (const n of clause[0].matchAll(/\b(\d{3})\b/g)) if (n[1] !== r.number) add(n[1], `${r.number} (in part)`);
  }
}

const rows = records.map((r) => {
  const all = new Set(supersededBy.get(r.number) ?? []);
  // A record that replaces this one as a whole is not listed again for a part of it.
  const by = [...all].filter((entry) => !(entry.endsWith('(in part)') && all.has(entry.slice(0, 3))));
  const state = /^superseded/i.test(r.status) ? 'superseded' : /^proposed/i.test(r.status) ? 'proposed' : 'accepted';
  const links = by.map((entry) => {
    const target = records.find((x) => x.number === entry.slice(0, 3));
    return target ? `[${entry.slice(0, 3)}](${target.file})${entry.slice(3)}` : entry;
  });
  return `| [${r.number}](${r.file}) | ${r.title.replace(/\|/g, '\\|')} | ${state} | ${links.join(', ')} |`;
});

writeFileSync(
  new URL('README.md', DIR),
  `# Decision records

One file per decision: \`NNN-title.md\` with its date and status, then Context, Decision and
Consequences. A later record that changes an earlier one says so in its status line; "(in part)"
means only the part it names is replaced. Benchmark logs live in \`docs/benchmarks/\`.
This table is written by \`node --import tsx scripts/decisions-index.ts\`: run it after adding a record.

| No. | Title | Status | Superseded by |
| --- | --- | --- | --- |
${rows.join('\n')}
`,
);
