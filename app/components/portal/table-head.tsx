/**
 * The caption (for screen readers) and column headings of a wide table that phones show as a list
 * instead: the audit log and the staff list.
 */
export function TableHead({ caption, headings }: { caption: string; headings: readonly string[] }) {
  return (
    <>
      <caption className="sr-only">{caption}</caption>
      <thead>
        <tr className="border-b border-slate-300 dark:border-slate-600">
          {headings.map((h) => (
            <th key={h} scope="col" className="py-2 pr-3 font-semibold">
              {h}
            </th>
          ))}
        </tr>
      </thead>
    </>
  );
}
