import { useCallback, useEffect, useRef, useState } from 'react';
import { SECTION_SCHEMAS, type SectionKey } from '../../../common/content/sections.ts';
import { type ApiRequestError } from '../../lib/api.ts';
import type { FieldErrors } from './schema-form.tsx';
import { useSectionActions, type Draft } from './site-content-api.ts';

type Doc = Record<string, unknown>;
export type SaveState = { kind: 'saved' | 'pending' | 'saving' | 'invalid' } | { kind: 'conflict' | 'failed'; message: string };

/** How long typing must pause before the draft is saved. */
const AUTOSAVE_DELAY_MS = 1000;

/** The zod issues as field messages keyed by path ('social.facebook'), as the server names them without 'document.'. */
function issuesOf(section: SectionKey, doc: Doc): FieldErrors {
  const result = SECTION_SCHEMAS[section].safeParse(doc);
  if (result.success) return {};
  const out: FieldErrors = {};
  for (const issue of result.error.issues) out[issue.path.join('.')] ??= issue.message;
  return out;
}

/**
 * The editor's copy of a draft, saved a moment after the last change (only when it passes the
 * section's schema; the marked fields say why not). A save refused because someone else saved
 * first stops the autosave and says who; nothing is overwritten.
 */
export function useAutosave(section: SectionKey, initial: Draft) {
  const actions = useSectionActions(section);
  const [doc, setDoc] = useState<Doc>(initial.document);
  const [version, setVersion] = useState(initial.version);
  const [savedAt, setSavedAt] = useState(initial.savedAt);
  // A draft saved under older rules (a link that is no web address, decision 300) shows its fields marked at once.
  const [errors, setErrors] = useState<FieldErrors>(() => issuesOf(section, initial.document));
  const [state, setState] = useState<SaveState>({ kind: 'saved' });
  const timer = useRef<ReturnType<typeof setTimeout>>(undefined);
  const latest = useRef({ doc, version, dirty: false });
  latest.current.version = version;

  const reset = useCallback((draft: Draft) => {
    clearTimeout(timer.current);
    latest.current = { doc: draft.document, version: draft.version, dirty: false };
    setDoc(draft.document);
    setVersion(draft.version);
    setSavedAt(draft.savedAt);
    setErrors({});
    setState({ kind: 'saved' });
  }, []);

  /** Saves the latest copy now if it changed; resolves with the version to act on (null if it could not be saved). */
  const flush = useCallback(async (): Promise<number | null> => {
    clearTimeout(timer.current);
    const { doc: current, version: from, dirty } = latest.current;
    if (!dirty) return from;
    const found = issuesOf(section, current);
    setErrors(found);
    if (Object.keys(found).length) {
      setState({ kind: 'invalid' });
      return null;
    }
    setState({ kind: 'saving' });
    try {
      const { draft } = await actions.save.mutateAsync({ version: from, document: current });
      latest.current.version = draft.version;
      // Typing during the save leaves the copy dirty, for the next save.
      if (latest.current.doc === current) latest.current.dirty = false;
      setVersion(draft.version);
      setSavedAt(draft.savedAt);
      setState(latest.current.dirty ? { kind: 'pending' } : { kind: 'saved' });
      return draft.version;
    } catch (err) {
      const e = err as ApiRequestError;
      if (e.status === 409) setState({ kind: 'conflict', message: e.message });
      else if (e.status === 400 && Array.isArray(e.details)) {
        const fromServer: FieldErrors = {};
        for (const d of e.details as { field: string; message: string }[]) fromServer[d.field.replace(/^document\./, '')] ??= d.message;
        setErrors(fromServer);
        setState({ kind: 'invalid' });
      } else setState({ kind: 'failed', message: e.message });
      return null;
    }
  }, [actions.save, section]);

  const change = (next: Doc) => {
    latest.current = { ...latest.current, doc: next, dirty: true };
    setDoc(next);
    if (state.kind === 'conflict') return;
    setState({ kind: 'pending' });
    clearTimeout(timer.current);
    timer.current = setTimeout(() => void flush(), AUTOSAVE_DELAY_MS);
  };

  useEffect(() => () => clearTimeout(timer.current), []);
  return { doc, version, savedAt, errors, state, change, flush, reset, actions };
}
