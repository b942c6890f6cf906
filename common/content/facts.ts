import type { CompanyFacts, Fact, Point } from './schemas.ts';
import { company } from './company.ts';

/** The company facts of the specification (section 1), shown on About, Home and in the PDF profile. */
export const companyFacts: CompanyFacts = {
  foundedYear: company.foundedYear,
  combinedManagementExperienceYears: 12,
  topManagementExperienceYears: 25,
  minimumOwnedEquipmentPercent: 45,
  nigerianShareholdingPercent: 100,
  keyStrengths: [
    {
      title: '45% Minimum Owned Equipment',
      description:
        'At least 45% of the equipment on every job is our own, so mobilisation does not wait on rental markets and maintenance stays under our control.',
    },
    {
      title: 'Technical Partnership',
      description:
        'A standing technical partnership gives our crews access to specialist engineering support, proven procedures and equipment beyond our own fleet.',
    },
    {
      title: 'Recruitment Policy',
      description:
        'We recruit and train from the communities we work in first, and we keep a core of certified supervisors on every site.',
    },
  ],
  offices: [
    {
      name: 'Head Office',
      streetAddress: '12 Harbour View Road, Trans-Amadi',
      addressLocality: 'Port Harcourt',
      addressRegion: 'Rivers State',
      addressCountry: 'NG',
    },
    {
      name: 'United States Office',
      streetAddress: '400 Example Avenue, Suite 210',
      addressLocality: 'Houston',
      addressRegion: 'TX',
      postalCode: '77000',
      addressCountry: 'US',
    },
    {
      name: 'Equipment Yard',
      streetAddress: 'Plot 7 Riverside Industrial Layout',
      addressLocality: 'Onne',
      addressRegion: 'Rivers State',
      addressCountry: 'NG',
    },
  ],
};

/** The headline facts, as short value-and-label pairs. */
export const headlineFacts: Fact[] = [
  { value: String(companyFacts.foundedYear), label: 'Founded' },
  { value: `${companyFacts.combinedManagementExperienceYears} years`, label: 'Combined management experience' },
  { value: `${companyFacts.topManagementExperienceYears} years`, label: 'Top management experience' },
  { value: `${companyFacts.minimumOwnedEquipmentPercent}%`, label: 'Minimum owned equipment' },
  { value: `${companyFacts.nigerianShareholdingPercent}%`, label: 'Nigerian shareholding' },
];

/** Home: 'Why Choose Us'. */
export const whyChooseUs: Point[] = [
  {
    title: 'Safety First',
    description: 'Every site runs on a written safety plan, daily toolbox talks and stop-work authority for everyone on it.',
  },
  {
    title: 'Experienced Leadership',
    description: `${companyFacts.topManagementExperienceYears} years of top management experience across oil and gas, civil and marine work.`,
  },
  {
    title: 'Our Own Equipment',
    description: `At least ${companyFacts.minimumOwnedEquipmentPercent}% of the equipment we deploy is owned and maintained by us.`,
  },
  {
    title: '100% Nigerian Owned',
    description: 'An indigenous company with 100% Nigerian shareholding, building local capacity on every project.',
  },
];

/** Our Projects: the four statistics. */
export const projectStatistics: Fact[] = [
  { value: '50+', label: 'Projects Completed' },
  { value: '12+', label: 'Years Experience' },
  { value: '100%', label: 'Nigerian Owned' },
  { value: '24/7', label: 'Service Support' },
];

/** Our Equipment: the four statistics. */
export const equipmentStatistics: Fact[] = [
  { value: '100+', label: 'Equipment Units' },
  { value: '24/7', label: 'Maintenance' },
  { value: '100%', label: 'Compliance' },
  { value: 'ISO', label: 'Certified' },
];
