import { afterEach, describe, expect, it } from 'vitest';
import { dismissToast, scopedToasts, selectToastAction, subscribeToasts, toast, toastDuration, toastItems, TOAST_DURATION_MS } from './toast-store.ts';

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

// Issue 27: the toast API another engineer's 'Undo' builds on (decision 232).
describe('toast actions and durations', () => {
  it("keeps the action and the duration on the item, and gives the default duration when none is set", () => {
    const onSelect = () => undefined;
    const id = toast({ title: 'Status changed', action: { label: 'Undo', onSelect }, durationMs: 8000 });
    const item = toastItems().find((t) => t.id === id)!;
    expect(item.action).toEqual({ label: 'Undo', onSelect });
    expect(toastDuration(item)).toBe(8000);
    expect(toastDuration({ title: 'Saved' })).toBe(TOAST_DURATION_MS);
  });

  it('selecting the action runs it once and dismisses the toast; a gone toast runs nothing', () => {
    const calls: string[] = [];
    const id = toast({ title: 'Status changed', action: { label: 'Undo', onSelect: () => calls.push(`undo, shown: ${titles().join()}`) } });
    toast({ title: 'Other' });
    selectToastAction(id);
    expect(calls).toEqual(['undo, shown: Other']);
    expect(titles()).toEqual(['Other']);
    selectToastAction(id);
    expect(calls).toHaveLength(1);
  });

  it('tells its listeners when a toast comes and goes, and not for a dismissal of nothing', () => {
    let heard = 0;
    const stop = subscribeToasts(() => heard++);
    const id = toast({ title: 'Saved' });
    dismissToast(id);
    dismissToast(id);
    stop();
    toast({ title: 'Unheard' });
    expect(heard).toBe(2);
  });
});
