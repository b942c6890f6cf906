import { Link } from 'react-router';
import { useSection } from '../../lib/site-content.ts';
import { FOOTER_LINKS } from '../../../common/paths.ts';
import { NewsletterForm } from '../../features/newsletter/newsletter-form.tsx';
import { todayIso } from '../../../common/dates.ts';
import { mailHref, phoneHref, socialLinks } from '../../lib/company-links.ts';

export function SiteFooter() {
  const company = useSection('company');
  const footer = useSection('footer');
  const social = socialLinks(company);
  const phone = phoneHref(company.phone);
  const mail = mailHref(company.email);
  return (
    <footer className="bg-slate-950 text-slate-300">
      <div className="mx-auto grid max-w-7xl gap-10 px-4 py-12 sm:grid-cols-2 lg:grid-cols-4">
        <div>
          <p className="text-lg font-bold text-white">{company.name}</p>
          <p className="mt-2 text-sm">{company.tagline}</p>
        </div>
        <nav aria-label="Quick links">
          <h2 className="text-sm font-semibold tracking-wide text-white uppercase">Quick Links</h2>
          <ul className="mt-3 space-y-1 text-sm">
            {FOOTER_LINKS.map((link) => (
              <li key={link.to}>
                <Link to={link.to} className="inline-block py-1.5 hover:text-white hover:underline">
                  {link.label}
                </Link>
              </li>
            ))}
          </ul>
        </nav>
        <div>
          <h2 className="text-sm font-semibold tracking-wide text-white uppercase">Contact</h2>
          <address className="mt-3 space-y-2 text-sm not-italic">
            <p>{company.address}</p>
            <p>
              {phone ? (
                <a href={phone} className="hover:text-white hover:underline">
                  {company.phone}
                </a>
              ) : (
                company.phone
              )}
            </p>
            <p>
              {mail ? (
                <a href={mail} className="hover:text-white hover:underline">
                  {company.email}
                </a>
              ) : (
                company.email
              )}
            </p>
          </address>
        </div>
        <div>
          <h2 className="text-sm font-semibold tracking-wide text-white uppercase">{footer.newsletterHeading}</h2>
          <p className="mt-3 mb-3 text-sm">{footer.newsletterText}</p>
          <NewsletterForm />
        </div>
      </div>
      <div className="border-t border-slate-800">
        <div className="mx-auto flex max-w-7xl flex-col items-center justify-between gap-3 px-4 py-6 text-sm sm:flex-row">
          <p>
            © {company.foundedYear}–{todayIso().slice(0, 4)} {company.name}. All rights reserved.
          </p>
          {social.length ? (
            <ul className="flex gap-4" aria-label="Social media">
              {social.map((s) => (
                <li key={s.label}>
                  <a
                    href={s.href}
                    target="_blank"
                    rel="noopener noreferrer"
                    className="inline-block py-2 hover:text-white hover:underline"
                  >
                    {s.label}
                  </a>
                </li>
              ))}
            </ul>
          ) : null}
        </div>
      </div>
    </footer>
  );
}
