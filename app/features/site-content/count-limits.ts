import type { z } from 'zod';
import { FIXED_ORDER_LISTS } from '../../../common/content/sections.ts';

/** How many items a list may hold: from `min` up to `max` (Infinity when unbounded). */
export interface CountLimits {
  min: number;
  max: number;
  /** The pages place each item by its position (six slides by theme, five numbered steps): no Move buttons. */
  fixedOrder?: true;
}

interface ArrayDef {
  checks?: { _zod: { def: { check: string; length?: number; minimum?: number; maximum?: number } } }[];
}

/**
 * How many items a list's schema allows (`.length(n)`, `.min(n)`, `.max(n)`), so the list editor offers
 * Add only below the most and Remove only above the fewest (decision 297).
 */
export function countLimits(schema: z.ZodType): CountLimits {
  let min = 0;
  let max = Infinity;
  for (const check of (schema as unknown as { def: ArrayDef }).def.checks ?? []) {
    const { check: kind, length, minimum, maximum } = check._zod.def;
    if (kind === 'length_equals' && length !== undefined) {
      min = Math.max(min, length);
      max = Math.min(max, length);
    } else if (kind === 'min_length' && minimum !== undefined) min = Math.max(min, minimum);
    else if (kind === 'max_length' && maximum !== undefined) max = Math.min(max, maximum);
  }
  return FIXED_ORDER_LISTS.has(schema) ? { min, max, fixedOrder: true } : { min, max };
}
