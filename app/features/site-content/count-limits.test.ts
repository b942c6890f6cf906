import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { SECTION_SCHEMAS } from '../../../common/content/sections.ts';
import { companyFactsSchema } from '../../../common/content/schemas.ts';
import { countLimits } from './count-limits.ts';

// Decision 297: the list editors offer Add below a list's most items and Remove above its fewest,
// both read from the section's schema, so a fixed-count list (three certificates, six slides) has neither.

const listOf = (section: keyof typeof SECTION_SCHEMAS, field: string) =>
  (SECTION_SCHEMAS[section] as z.ZodObject).shape[field] as z.ZodType;

describe('countLimits', () => {
  it('reads an exact length as both the fewest and the most', () => {
    expect(countLimits(listOf('certificates', 'certificates'))).toEqual({ min: 3, max: 3 });
    expect(countLimits(listOf('home', 'slides'))).toEqual({ min: 6, max: 6, fixedOrder: true });
    expect(countLimits(listOf('services', 'services'))).toEqual({ min: 6, max: 6, fixedOrder: true });
    expect(countLimits(companyFactsSchema.shape.keyStrengths)).toEqual({ min: 3, max: 3 });
  });

  it('reads a range, and a list with only a fewest as unbounded above (refinements do not hide the checks)', () => {
    expect(countLimits(listOf('projects', 'projects'))).toEqual({ min: 17, max: 21 });
    expect(countLimits(listOf('team', 'members'))).toEqual({ min: 1, max: Infinity });
    expect(countLimits(listOf('equipment', 'items'))).toEqual({ min: 3, max: Infinity });
  });

  it('marks the lists whose order the pages rely on, and only those', () => {
    const process = (SECTION_SCHEMAS.process as z.ZodObject).shape.steps as z.ZodType;
    expect(countLimits(process)).toEqual({ min: 5, max: 5, fixedOrder: true });
    expect(countLimits(listOf('certificates', 'certificates')).fixedOrder).toBeUndefined();
    expect(countLimits(listOf('team', 'members')).fixedOrder).toBeUndefined();
  });

  it('leaves a list without rules open both ways', () => {
    expect(countLimits(z.array(z.string()))).toEqual({ min: 0, max: Infinity });
    expect(countLimits(z.array(z.string()).max(5))).toEqual({ min: 0, max: 5 });
  });
});
