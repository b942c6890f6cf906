// The newsletter box's words, without zod: the box sits in the footer of every page.
export const NEWSLETTER_MESSAGES = {
  // The same answer whatever the address's state, so the box does not reveal who is subscribed.
  checkInbox: 'Almost done! Check your inbox and click the link in our e-mail to confirm your subscription.',
  // While the site has no mail transport the confirmation link cannot leave: say so, promise nothing.
  noMail: 'Thank you. We cannot send the e-mail that confirms a subscription at the moment, so your subscription is not active yet. Please try again later.',
  confirmed: 'Your subscription is confirmed. Thank you!',
  unsubscribed: 'You have been unsubscribed. You will not receive our newsletter any more.',
  badLink: 'This link is not valid or has expired. Please subscribe again from the box at the bottom of any page.',
  failed: 'We could not subscribe you right now. Please try again.',
  emptyAddress: 'Please enter your email address',
  invalidAddress: 'Please enter a valid email address',
} as const;

/**
 * The answer of the newsletter box's form post without JavaScript (POST /newsletter/subscribe,
 * decision 176): the server decides it and hands it to the page of that path in the load context.
 */
export interface NewsletterFormAnswer {
  ok: boolean;
  status: number;
  message: string;
  /** A path of this site to go back to (the page the visitor came from). */
  back: string;
}
export const NEWSLETTER_FORM_CONTEXT_KEY = 'newsletterFormAnswer';
/** The field the answer page's own form carries, so a second try still leads back to the first page. */
export const NEWSLETTER_BACK_FIELD = 'from';
export const NEWSLETTER_FORM_TEXT = {
  title: 'Newsletter subscription',
  intro: 'News about our projects, a few times a year.',
  back: 'Back to the page you were reading',
} as const;
