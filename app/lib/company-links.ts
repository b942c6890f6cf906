import type { SectionDocument } from '../../common/content/sections.ts';
import { safeHref } from '../../common/schemas/link-check.ts';

// The company's links as the pages write them (issue 45, decision 300): each passes safeHref, so a
// stored link that is no web, e-mail or phone link is left out rather than rendered.

type Company = SectionDocument<'company'>;

const SOCIAL_LABELS = [
  ['facebook', 'Facebook'],
  ['twitter', 'Twitter'],
  ['whatsapp', 'WhatsApp'],
] as const;

/** The company's social network links that are web links, in the pages' order. */
export function socialLinks(company: Company): { label: string; href: string }[] {
  return SOCIAL_LABELS.flatMap(([key, label]) => {
    const href = safeHref(company.social[key]);
    return href ? [{ label, href }] : [];
  });
}

/** A tel: link to the number (spaces and punctuation dropped), or undefined when it makes none. */
export const phoneHref = (phone: string) => safeHref(`tel:${phone.replace(/[^\d+]/g, '')}`, 'contact');

/** A mailto: link to the address, or undefined when it makes none. */
export const mailHref = (email: string) => safeHref(`mailto:${email}`, 'contact');
