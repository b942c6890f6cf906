import type { SectionDocument, SectionKey } from './sections.ts';
import { company } from './company.ts';
import { companyFacts, equipmentStatistics, headlineFacts, projectStatistics, whyChooseUs } from './facts.ts';
import { slides } from './home.ts';
import { services } from './services.ts';
import { about } from './about.ts';
import { team } from './team.ts';
import { processBenefits, processSteps } from './process.ts';
import { projectCategories, showcaseProjects } from './projects.ts';
import { equipment } from './equipment.ts';
import { gallery } from './gallery.ts';
import { testimonials } from './testimonials.ts';
import { certificates, regulatoryCompliance } from './certificates.ts';
import { partners } from './partners.ts';
import { contact, footer } from './contact.ts';

/**
 * The starting document of every section: today's content modules, so a fresh install shows what
 * the site has always shown (decision 283). Copied into the database once per section, never over
 * what staff have saved.
 */
export const SECTION_SEEDS: { [K in SectionKey]: SectionDocument<K> } = {
  company,
  facts: { companyFacts, headlineFacts, projectStatistics, equipmentStatistics, whyChooseUs },
  home: { slides },
  services: { services },
  about,
  team: { members: team },
  process: { steps: processSteps, benefits: processBenefits },
  projects: { projects: showcaseProjects, categories: projectCategories },
  equipment: { items: equipment },
  gallery: { items: gallery },
  testimonials: { items: testimonials },
  certificates: { certificates, regulatoryCompliance },
  partners: { partners },
  contact,
  footer,
};
