import { describe, expect, it } from 'vitest';
import { validateContent } from './validate-content.ts';
import { companySchema } from './schemas.ts';
import { company } from './company.ts';
import { services } from './services.ts';
import { team } from './team.ts';
import { showcaseProjects } from './projects.ts';
import { processSteps } from './process.ts';
import { certificates } from './certificates.ts';

describe('company content', () => {
  it('passes every schema and finds every picture it names', () => {
    expect(() => validateContent()).not.toThrow();
  });

  it('fails (and so fails the build) when a picture it names is missing', () => {
    expect(() => validateContent('/nonexistent-public-dir')).toThrow(/Missing picture file/);
  });

  it('rejects a broken company profile with the field that is wrong', () => {
    const result = companySchema.safeParse({ ...company, email: 'not-an-email' });
    expect(result.success).toBe(false);
    expect(result.error?.issues[0].path).toEqual(['email']);
  });

  it('has the six services with the specified ids, in order', () => {
    expect(services.map((s) => s.id)).toEqual(['oil-gas', 'design-planning', 'mechanical-fabrication', 'civil-engineering', 'marine-logistics', 'mechanical-engineering']);
  });

  it('has the five team roles of the specification', () => {
    expect(team.map((m) => m.position)).toEqual([
      'Chief Executive Officer',
      'Executive Director',
      'Projects Manager',
      'Software Engineer',
      'US Business Development Lead',
    ]);
  });

  it('has about 19 showcase projects, the five process steps and three certificates dated 2024', () => {
    expect(showcaseProjects).toHaveLength(19);
    expect(processSteps.map((s) => s.title)).toEqual(['Intent Declaration', 'Review of Tender', 'Feedback', 'Contract Execution', 'Making Payments (in milestones)']);
    expect(certificates.map((c) => c.date)).toEqual(['2024', '2024', '2024']);
  });
});
