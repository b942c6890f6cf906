// Every domain's tables, for drizzle-kit and for the typed client.
export * from './users.ts';
export * from './mail.ts';
export * from './auth.ts';
export * from './projects.ts';
export * from './reports.ts';
export * from './timelines.ts';
export * from './vendors.ts';
export * from './contact.ts';
export * from './newsletter.ts';
export * from './form-guard.ts';
export * from './messages.ts';
export * from './blog.ts';
export * from './chat.ts';
export * from './news.ts';
export * from './audit.ts';
export * from './media.ts';
export * from './site-content.ts';
