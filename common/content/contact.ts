import type { ContactContent, FooterContent } from './schemas.ts';
import { company } from './company.ts';

/** Contact: the offices the page lists, and 'Business Hours'. */
export const contact: ContactContent = {
  offices: [
    { title: 'Head Office', address: company.address },
    { title: 'United States Office', address: company.addressi },
    { title: 'Port Harcourt Refinery', address: company.refineryAddress },
  ],
  hours: ['24/7 support', 'Emergency services: round the clock'],
};

/** The footer's own words (the company's name, tagline and contacts come from the company profile). */
export const footer: FooterContent = {
  newsletterHeading: 'Newsletter',
  newsletterText: 'News about our projects, a few times a year.',
};
