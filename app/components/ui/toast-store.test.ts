import { afterEach, describe, expect, it } from 'vitest';
import { dismissToast, scopedToasts, toast, toastItems } from './toast-store.ts';

// Issue 21: a message belongs to one attempt.
afterEach(() => toastItems().forEach((t) => dismissToast(t.id)));

const titles = () => toastItems().map((t) => t.title);

describe('scoped toasts', () => {
  it("replaces the form's earlier message: the validation error does not stay under the success", () => {
    const contact = scopedToasts('contact-form');
    contact.show({ title: 'Validation Error', description: 'Please enter your name', variant: 'destructive' });
    contact.show({ title: 'Message Sent Successfully!' });
    expect(titles()).toEqual(['Message Sent Successfully!']);
  });

  it("clears the form's messages when a new attempt starts, and leaves other scopes and plain toasts alone", () => {
    const signIn = scopedToasts('sign-in');
    toast({ title: 'Failed to load projects', variant: 'destructive' });
    scopedToasts('contact-form').show({ title: 'Validation Error' });
    signIn.show({ title: 'Login Failed', variant: 'destructive' });
    signIn.clear();
    expect(titles()).toEqual(['Validation Error', 'Failed to load projects']);
    signIn.show({ title: 'Login Successful' });
    expect(titles()).toEqual(['Login Successful', 'Validation Error', 'Failed to load projects']);
  });
});
