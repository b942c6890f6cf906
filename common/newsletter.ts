// The newsletter box's words, without zod: the box sits in the footer of every page.
export const NEWSLETTER_MESSAGES = {
  // The same answer whatever the address's state, so the box does not reveal who is subscribed.
  checkInbox: 'Almost done! Check your inbox and click the link in our e-mail to confirm your subscription.',
  confirmed: 'Your subscription is confirmed. Thank you!',
  unsubscribed: 'You have been unsubscribed. You will not receive our newsletter any more.',
  badLink: 'This link is not valid or has expired. Please subscribe again from the box at the bottom of any page.',
  failed: 'We could not subscribe you right now. Please try again.',
} as const;
