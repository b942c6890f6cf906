import MiniSearch, { type SearchResult } from 'minisearch';
import type { SectionDocument } from '../../../common/content/sections.ts';
import { PATHS } from '../../../common/paths.ts';
import { publishedMemo, type PublishedReader } from '../site-content/published-company.ts';
import {
  VENDOR_CERTIFICATION_FILES_MAX,
  VENDOR_FILE_EXTENSIONS,
  VENDOR_FILE_MAX_BYTES,
  VENDOR_TOTAL_MAX_BYTES,
} from '../../../common/schemas/vendors.ts';

// The company's own facts as short documents, each linked to the page it comes from. Both modes of the
// chat answer from these: retrieval shows the best ones, the AI prompt is grounded on all of them and
// told which ones match best. Built from the published content, again after each publish of a section
// they use (decisions 101 and 290).

export interface ChatFact {
  id: string;
  title: string;
  text: string;
  /** Words a visitor may use for this fact that its text does not contain. */
  keywords: string;
  /** Our own page the fact comes from. */
  url: string;
  /** Which part of the site, for the system instruction. */
  topic: string;
}

const MB = 1024 * 1024;

/** The sections the facts are made of; a publish of any of them rebuilds the knowledge. */
const KNOWLEDGE_SECTIONS = ['company', 'facts', 'about', 'services', 'team', 'equipment', 'certificates', 'process', 'projects'] as const;

interface KnowledgeContent {
  company: SectionDocument<'company'>;
  facts: SectionDocument<'facts'>;
  about: SectionDocument<'about'>;
  services: SectionDocument<'services'>;
  team: SectionDocument<'team'>;
  equipment: SectionDocument<'equipment'>;
  certificates: SectionDocument<'certificates'>;
  process: SectionDocument<'process'>;
  projects: SectionDocument<'projects'>;
}

function buildFacts(content: KnowledgeContent): ChatFact[] {
  const { company, about } = content;
  const { companyFacts, equipmentStatistics, projectStatistics, whyChooseUs } = content.facts;
  const { services } = content.services;
  const team = content.team.members;
  const equipment = content.equipment.items;
  const { certificates, regulatoryCompliance } = content.certificates;
  const { steps: processSteps, benefits: processBenefits } = content.process;
  const { projects: showcaseProjects, categories: projectCategories } = content.projects;
  const facts: ChatFact[] = [];
  const add = (f: ChatFact) => facts.push(f);

  add({
    id: 'contact-phone-email',
    topic: 'Contact details',
    title: 'Phone and e-mail',
    text: `Call us on ${company.phone} or ${company.alternatePhone}, WhatsApp ${company.whatsapp}, or e-mail ${company.email}. Support is available 24/7, and emergency services run round the clock.`,
    keywords: 'phone number telephone call ring mobile contact reach email mail whatsapp support hours open emergency talk',
    url: PATHS.contact,
  });
  add({
    id: 'contact-offices',
    topic: 'Contact details',
    title: 'Offices and addresses',
    text: `Head office: ${company.address}. United States office: ${company.addressi}. Equipment yard: ${company.addressii}. Refinery site: ${company.refineryAddress}.`,
    keywords: 'address location where office located visit headquarters port harcourt houston usa america yard onne map',
    url: PATHS.contact,
  });
  add({
    id: 'company-profile',
    topic: 'Company facts',
    title: 'About the company',
    text: `${company.name} was founded in ${companyFacts.foundedYear} (registration number ${company.registrationNumber}). It is ${companyFacts.nigerianShareholdingPercent}% Nigerian owned, with ${companyFacts.combinedManagementExperienceYears} years of combined management experience and ${companyFacts.topManagementExperienceYears} years of top management experience.`,
    keywords: 'who are you company history founded registration rc owned nigerian indigenous experience years established about',
    url: PATHS.about,
  });
  add({
    id: 'company-story',
    topic: 'Company facts',
    title: 'Our story',
    text: about.story.join(' '),
    keywords: 'story history background',
    url: PATHS.about,
  });
  add({
    id: 'vision-mission',
    topic: 'Company facts',
    title: 'Vision, mission and values',
    text: `Vision: ${about.vision} Mission: ${about.mission} Values: ${about.values.map((v) => `${v.title} (${v.description})`).join('; ')}`,
    keywords: 'vision mission values goals safety integrity',
    url: PATHS.about,
  });
  add({
    id: 'key-strengths',
    topic: 'Company facts',
    title: 'Key strengths',
    text: companyFacts.keyStrengths.map((s) => `${s.title}: ${s.description}`).join(' '),
    keywords: 'strengths why choose advantage partnership recruitment equipment owned',
    url: PATHS.about,
  });
  add({
    id: 'why-choose-us',
    topic: 'Company facts',
    title: 'Why choose us',
    text: whyChooseUs.map((p) => `${p.title}: ${p.description}`).join(' '),
    keywords: 'why choose reasons better',
    url: PATHS.home,
  });
  add({
    id: 'services-overview',
    topic: 'Services',
    title: 'Our services',
    text: `We offer six services: ${services.map((s) => s.title).join(', ')}.`,
    keywords: 'services offer do provide work capabilities what you do list',
    url: PATHS.services,
  });
  for (const s of services) {
    add({
      id: `service-${s.id}`,
      topic: 'Services',
      title: s.title,
      text: `${s.description} ${s.details.join(' ')} Key features: ${s.features.join('; ')}.`,
      keywords: `service ${s.id.replace(/-/g, ' ')}`,
      url: PATHS.serviceSection(s.id),
    });
  }
  add({
    id: 'team',
    topic: 'Team roles',
    title: 'Our team',
    text: `Our leadership team: ${team.map((m) => `${m.name} (${m.position})`).join(', ')}.`,
    keywords: 'team people staff management leadership ceo chief executive director manager engineer who runs',
    url: PATHS.about,
  });
  add({
    id: 'equipment',
    topic: 'Equipment',
    title: 'Our equipment',
    text: `Our fleet includes ${equipment.map((e) => `${e.name} (${e.category})`).join(', ')}. ${equipmentStatistics.map((f) => `${f.value} ${f.label}`).join(', ')}. At least ${companyFacts.minimumOwnedEquipmentPercent}% of the equipment on every job is our own.`,
    keywords: 'equipment fleet machines crane excavator boat barge truck plant hire rent vessels',
    url: PATHS.equipments,
  });
  add({
    id: 'certifications',
    topic: 'Certifications',
    title: 'Certifications and licences',
    text: `We hold ${certificates.map((c) => `${c.title} (${c.issuer}, ${c.date})`).join(', ')}. ${regulatoryCompliance.map((p) => `${p.title}: ${p.description}`).join('. ')}.`,
    keywords: 'certifications certified certificate iso 9001 14001 45001 licence license accredited quality safety environmental compliance permits',
    url: PATHS.certifications,
  });
  add({
    id: 'how-we-work',
    topic: 'How we work',
    title: 'How we work',
    text: `Our process has five steps: ${processSteps.map((s) => `${s.step}. ${s.title}: ${s.description}`).join(' ')}`,
    keywords: 'process steps method methodology how work start project tender proposal quote contract engage hire',
    url: PATHS.howWeWork,
  });
  add({
    id: 'payments',
    topic: 'How we work',
    title: 'Pricing and payments',
    text: processBenefits.map((p) => `${p.title}: ${p.description}`).join(' '),
    keywords: 'price pricing cost payment pay milestones terms quote fees hidden costs',
    url: PATHS.howWeWork,
  });
  add({
    id: 'quote',
    topic: 'How we work',
    title: 'Getting a quote',
    text: `To get a quote, send us your request through the contact form, call ${company.phone} or e-mail ${company.email}. We reply within 24 hours.`,
    keywords: 'quote quotation estimate request proposal bid tender price enquiry',
    url: PATHS.contact,
  });
  add({
    id: 'vendor-registration',
    topic: 'Vendor registration',
    title: 'Vendor registration',
    text: `Suppliers and subcontractors register on our Vendor Form: company information, contact person, additional information and supporting documents (up to ${VENDOR_CERTIFICATION_FILES_MAX} certification files and a company profile; ${VENDOR_FILE_MAX_BYTES / MB} MB per file, ${VENDOR_TOTAL_MAX_BYTES / MB} MB in total; ${VENDOR_FILE_EXTENSIONS.join(', ')}). Our team reviews every registration.`,
    keywords: 'vendor supplier subcontractor register registration sign up become partner supply contractor onboarding form documents',
    url: PATHS.vendorRegistration,
  });
  add({
    id: 'projects',
    topic: 'Projects',
    title: 'Our projects',
    text: `${projectStatistics.map((f) => `${f.value} ${f.label}`).join(', ')}. Categories: ${projectCategories.map((c) => c.title).join(', ')}. Recent work includes ${showcaseProjects
      .slice(0, 8)
      .map((p) => `${p.title} (${p.location})`)
      .join(', ')}.`,
    keywords: 'projects portfolio past work experience completed references examples track record',
    url: PATHS.projects,
  });
  add({
    id: 'client-portal',
    topic: 'Client portal',
    title: 'Client portal',
    text: 'Registered clients sign in with the Client Login button to follow their projects: timeline, progress reports and messages with our team. Accounts are created by our staff; contact us if you need one.',
    keywords: 'login sign in account portal dashboard password client track progress report',
    url: PATHS.clientLogin,
  });
  return facts;
}

export interface ChatKnowledge {
  facts: ChatFact[];
  /** The best-matching facts, best first; empty when nothing matches well enough. */
  search(question: string, limit?: number): ChatFact[];
  /**
   * The same facts, and the share (0 to 1) of the question's own words they contain: a match on one
   * word of a question about something else is not an answer to it.
   */
  match(question: string, limit?: number): { facts: ChatFact[]; coverage: number };
}

// Words that say nothing about what is asked, so "what is your ..." alone never matches.
const STOP_WORDS = new Set(
  'a an and are as at be by can could do does for from have how i in is it me my of on or our please tell the to us we what when where which who why will with would you your yours hello hi hey there thanks thank about'.split(
    ' ',
  ),
);

/** The question's words that can carry meaning, as the index sees them (MiniSearch's own split). */
function contentWords(question: string): string[] {
  return question
    .toLowerCase()
    .split(/[\n\r\p{Z}\p{P}]+/u)
    .filter((w) => w && !STOP_WORDS.has(w));
}

const knowledge = publishedMemo(KNOWLEDGE_SECTIONS, (company, facts, about, services, team, equipment, certificates, process, projects) =>
  buildKnowledge(buildFacts({ company, facts, about, services, team, equipment, certificates, process, projects })),
);

/** The knowledge base of the published content as it is now (built on first use after each change). */
export function chatKnowledge(content: PublishedReader): ChatKnowledge {
  return knowledge(content);
}

function buildKnowledge(facts: ChatFact[]): ChatKnowledge {
  const index = new MiniSearch<ChatFact>({
    fields: ['title', 'text', 'keywords'],
    storeFields: ['id'],
    processTerm: (term) => {
      const t = term.toLowerCase();
      return STOP_WORDS.has(t) ? null : t;
    },
    searchOptions: {
      boost: { title: 2, keywords: 2 },
      prefix: (term) => term.length >= 4,
      fuzzy: (term) => (term.length >= 6 ? 0.2 : false),
      combineWith: 'OR',
    },
  });
  index.addAll(facts);
  const byId = new Map(facts.map((f) => [f.id, f]));
  return {
    facts,
    search(question, limit = 3) {
      return this.match(question, limit).facts;
    },
    match(question, limit = 3) {
      const results: SearchResult[] = index.search(question);
      if (!results.length) return { facts: [], coverage: 0 };
      // Keep the facts close to the best one: a weak tail only adds noise to a short answer.
      const best = results[0].score;
      const kept = results.filter((r) => r.score >= best * 0.45).slice(0, limit);
      const asked = new Set(contentWords(question));
      const found = new Set(kept.flatMap((r) => r.queryTerms).filter((w) => asked.has(w)));
      return {
        facts: kept.map((r) => byId.get(String(r.id))!).filter(Boolean),
        coverage: asked.size ? found.size / asked.size : 0,
      };
    },
  };
}

/** The facts as the system instruction's reference text, grouped by topic. */
export function factsForPrompt(knowledge: ChatKnowledge): string {
  const topics = new Map<string, ChatFact[]>();
  for (const f of knowledge.facts) topics.set(f.topic, [...(topics.get(f.topic) ?? []), f]);
  return [...topics]
    .map(([topic, list]) => `## ${topic}\n${list.map((f) => `- ${f.title} (page ${f.url}): ${f.text}`).join('\n')}`)
    .join('\n\n');
}
