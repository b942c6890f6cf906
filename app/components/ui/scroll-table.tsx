import { clsx } from 'clsx';
import type { ReactNode } from 'react';

export interface ScrollTableColumn {
  label: string;
  align?: 'left' | 'right';
}

/**
 * A staff list as a table that scrolls sideways on phones inside its card instead of widening the
 * page. The scrolling region is focusable and named, so keyboard users can scroll it too; the caption
 * names the table for screen readers. Rows are the caller's `<tr>`s.
 */
export function ScrollTable({
  label,
  caption,
  minWidth,
  columns,
  stackOnPhone = false,
  children,
}: {
  /** Name of the scrolling region, e.g. 'Subscribers table'. */
  label: string;
  caption: string;
  /** Tailwind min-width class below which the table scrolls, e.g. 'min-w-[36rem]'. */
  minWidth: string;
  columns: readonly ScrollTableColumn[];
  /**
   * Below 640 px each row becomes a card with each cell under its column's name (the cells' own
   * `data-label`), instead of a table cut off at the card's edge (issue 21, the blog table).
   */
  stackOnPhone?: boolean;
  children: ReactNode;
}) {
  return (
    <div className="overflow-x-auto" tabIndex={0} role="region" aria-label={label}>
      <table className={clsx('w-full text-left text-sm', minWidth, stackOnPhone && 'table-stack')}>
        <caption className="sr-only">{caption}</caption>
        <thead>
          <tr className="border-b border-slate-200 dark:border-slate-700">
            {columns.map((c, i) => (
              <th
                key={c.label}
                scope="col"
                className={clsx(
                  'py-2 font-semibold',
                  i < columns.length - 1 && 'pr-4',
                  c.align === 'right' && 'text-right',
                )}
              >
                {c.label}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>{children}</tbody>
      </table>
    </div>
  );
}
