import { useState, type ComponentType } from 'react';
import type { z } from 'zod';
import { SECTION_SCHEMAS, type SectionKey } from '../../../common/content/sections.ts';
import type { SectionDetail } from '../../../common/schemas/site-content.ts';
import { previewPath } from '../../../common/site-content-context.ts';
import { formatDateTimeWithZone, fromZonedInput } from '../../../common/dates.ts';
import { buttonClass } from '../../components/button-class.ts';
import { InputField } from '../../components/forms/fields.tsx';
import { ErrorState, InlineLoading } from '../../components/portal/empty-state.tsx';
import { toast } from '../../components/ui/toast-store.ts';
import { ImageFieldContext, SchemaFields, type ImageFieldProps } from './schema-form.tsx';
import { RevisionHistory } from './revision-history.tsx';
import { useSection } from './site-content-api.ts';
import { useAutosave, type SaveState } from './use-autosave.ts';

const card = 'rounded-lg border border-slate-200 bg-white p-4 sm:p-6 dark:border-slate-800 dark:bg-slate-900';

function statusText(state: SaveState, savedAt: string, version: number): string {
  switch (state.kind) {
    case 'saved':
      return `Draft saved ${formatDateTimeWithZone(savedAt)} (version ${version})`;
    case 'pending':
      return 'Unsaved changes…';
    case 'saving':
      return 'Saving the draft…';
    case 'invalid':
      return 'Not saved: correct the marked fields';
    default:
      return state.message;
  }
}

function Editor({ detail, onReload }: { detail: SectionDetail; onReload: () => void }) {
  const section = detail.section as SectionKey;
  const { doc, version, savedAt, errors, state, change, flush, reset, actions } = useAutosave(section, detail.draft);
  const [when, setWhen] = useState('');
  const [whenError, setWhenError] = useState<string>();
  const busy = actions.publish.isPending || actions.schedule.isPending || actions.restore.isPending;
  const problem = state.kind === 'conflict' || state.kind === 'failed' || state.kind === 'invalid';

  const publish = async () => {
    const at = await flush();
    if (at === null) return;
    try {
      const { revision } = await actions.publish.mutateAsync(at);
      toast({ title: 'Published', description: `Visitors now see revision ${revision.number}.`, scope: 'site-content' });
    } catch (err) {
      toast({ title: 'Not published', description: (err as Error).message, variant: 'destructive', scope: 'site-content' });
    }
  };

  const schedule = async () => {
    const publishAt = fromZonedInput(when);
    if (!publishAt) return setWhenError('Choose a date and time');
    setWhenError(undefined);
    const at = await flush();
    if (at === null) return;
    try {
      await actions.schedule.mutateAsync({ version: at, publishAt });
      toast({ title: 'Scheduled', description: `This draft will be published ${formatDateTimeWithZone(publishAt)}.`, scope: 'site-content' });
    } catch (err) {
      setWhenError((err as Error).message);
    }
  };

  const restore = async (id: string, number: number) => {
    try {
      const { draft } = await actions.restore.mutateAsync({ id, version });
      reset(draft);
      toast({ title: 'Restored as draft', description: `Revision ${number} is now the draft. Publish it to show it to visitors.`, scope: 'site-content' });
    } catch (err) {
      toast({ title: 'Not restored', description: (err as Error).message, variant: 'destructive', scope: 'site-content' });
    }
  };

  return (
    <div className="space-y-6">
      <section aria-labelledby="draft-heading" className={card}>
        <div className="flex flex-wrap items-start justify-between gap-3">
          <h2 id="draft-heading" className="text-lg font-semibold">Draft</h2>
          <p role="status" className={`text-sm ${problem ? 'font-semibold text-red-800 dark:text-red-300' : 'text-slate-700 dark:text-slate-300'}`}>
            {statusText(state, savedAt, version)}
          </p>
        </div>
        {state.kind === 'conflict' ? (
          <button type="button" className={`${buttonClass('secondary')} mt-3`} onClick={onReload}>
            Load their version
          </button>
        ) : null}
        <p className="mt-1 text-sm text-slate-700 dark:text-slate-300">
          Changes save as a draft as you type; visitors see the published version (by {detail.published.publishedBy},{' '}
          {formatDateTimeWithZone(detail.published.publishedAt)}) until you publish.
        </p>
        <form className="mt-4" onSubmit={(e) => (e.preventDefault(), void flush())} noValidate>
          <SchemaFields schema={SECTION_SCHEMAS[section] as z.ZodObject} value={doc} errors={errors} onChange={change} />
          <div className="mt-6 flex flex-wrap gap-3">
            <button type="submit" className={buttonClass('secondary')} disabled={state.kind === 'saving'}>
              Save draft now
            </button>
            <button type="button" className={buttonClass('primary')} disabled={busy} onClick={() => void publish()}>
              {actions.publish.isPending ? 'Publishing…' : 'Publish'}
            </button>
            {/* Decision 289: the saved draft on its real page, in a new tab (only staff who edit see it). */}
            <a href={previewPath(section)} target="_blank" rel="noopener" className={buttonClass('secondary')}>
              Preview<span className="sr-only"> the saved draft (opens in a new tab)</span>
            </a>
          </div>
        </form>
      </section>

      <section aria-labelledby="schedule-heading" className={card}>
        <h2 id="schedule-heading" className="text-lg font-semibold">Schedule</h2>
        {detail.schedule ? (
          <div className="mt-2 flex flex-wrap items-center gap-3">
            <p>
              The draft as it was at scheduling will be published {formatDateTimeWithZone(detail.schedule.publishAt)} (set by {detail.schedule.createdBy}).
            </p>
            <button type="button" className={buttonClass('danger')} disabled={actions.unschedule.isPending} onClick={() => actions.unschedule.mutate()}>
              Cancel the schedule
            </button>
          </div>
        ) : (
          <p className="mt-2 text-sm text-slate-700 dark:text-slate-300">Publish this draft at a chosen time (Lagos time).</p>
        )}
        <div className="mt-3 flex flex-wrap items-end gap-3">
          <InputField
            id="publish-at"
            label="Publish at"
            type="datetime-local"
            value={when}
            error={whenError}
            onChange={(e) => setWhen(e.target.value)}
          />
          <button type="button" className={buttonClass('secondary')} disabled={busy} onClick={() => void schedule()}>
            Schedule
          </button>
        </div>
      </section>

      <section aria-labelledby="history-heading" className={card}>
        <h2 id="history-heading" className="mb-3 text-lg font-semibold">History</h2>
        <RevisionHistory section={section} onRestore={(id, n) => void restore(id, n)} restoring={actions.restore.isPending} />
      </section>
    </div>
  );
}

/** One section's editor: the draft form with autosave, Publish, Schedule and History; image fields drawn with `imageField` (the media picker). */
export function SectionEditor({ section, imageField }: { section: string; imageField: ComponentType<ImageFieldProps> }) {
  const { data, isPending, error, refetch, dataUpdatedAt } = useSection(section);
  if (isPending) return <InlineLoading label="Loading the section…" />;
  if (error || !data) return <ErrorState title="This section could not be loaded" error={error} onRetry={() => void refetch()} />;
  // A reload (after a conflict) starts the form again from the server's draft.
  return (
    <ImageFieldContext.Provider value={imageField}>
      <Editor key={dataUpdatedAt} detail={data} onReload={() => void refetch()} />
    </ImageFieldContext.Provider>
  );
}
