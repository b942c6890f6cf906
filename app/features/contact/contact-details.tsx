import { Clock, Mail, MapPin, Phone } from 'lucide-react';
import type { ReactNode } from 'react';
import type { SectionDocument } from '../../../common/content/sections.ts';
import { mailHref, phoneHref, socialLinks } from '../../lib/company-links.ts';

function Block({ icon, title, children }: { icon: ReactNode; title: string; children: ReactNode }) {
  return (
    <div className="flex gap-4">
      <div
        className="flex size-11 shrink-0 items-center justify-center rounded-full bg-brand-50 text-brand-700 dark:bg-slate-800 dark:text-sky-300"
        aria-hidden="true"
      >
        {icon}
      </div>
      <div className="min-w-0">
        <h3 className="font-semibold">{title}</h3>
        <div className="mt-1 text-slate-700 dark:text-slate-300">{children}</div>
      </div>
    </div>
  );
}

/** Where and how to reach the company: offices, phones, e-mail, hours and social links. */
export function ContactDetails({
  company,
  contact,
}: {
  company: SectionDocument<'company'>;
  contact: SectionDocument<'contact'>;
}) {
  const social = socialLinks(company);
  const mail = mailHref(company.email);
  return (
    <div className="space-y-6">
      {contact.offices.map((office) => (
        <Block key={office.title} icon={<MapPin className="size-5" />} title={office.title}>
          <address className="not-italic">{office.address}</address>
        </Block>
      ))}
      <Block icon={<Phone className="size-5" />} title="Phone">
        <ul>
          {[company.phone, company.alternatePhone].map((p) => {
            const href = phoneHref(p);
            return (
              <li key={p}>
                {href ? (
                  <a href={href} className="inline-block py-1 underline-offset-4 hover:underline">
                    {p}
                  </a>
                ) : (
                  p
                )}
              </li>
            );
          })}
        </ul>
      </Block>
      <Block icon={<Mail className="size-5" />} title="Email">
        {mail ? (
          <a href={mail} className="inline-block py-1 break-all underline-offset-4 hover:underline">
            {company.email}
          </a>
        ) : (
          company.email
        )}
      </Block>
      <Block icon={<Clock className="size-5" />} title="Business Hours">
        <ul>
          {contact.hours.map((line) => (
            <li key={line}>{line}</li>
          ))}
        </ul>
      </Block>
      {social.length ? (
        <div>
          <h3 className="font-semibold">Follow Us</h3>
          <ul className="mt-2 flex flex-wrap gap-3">
            {social.map((s) => (
              <li key={s.label}>
                <a
                  href={s.href}
                  target="_blank"
                  rel="noopener noreferrer"
                  className="inline-flex min-h-11 items-center rounded-md border border-slate-300 px-4 font-medium hover:bg-slate-100 dark:border-slate-600 dark:hover:bg-slate-800"
                >
                  {s.label}
                  <span className="sr-only"> (opens in a new tab)</span>
                </a>
              </li>
            ))}
          </ul>
        </div>
      ) : null}
    </div>
  );
}
