import { useId, useState, type FormEvent } from 'react';
import { ArrowDown, ArrowUp, Plus, Trash2 } from 'lucide-react';
import { koboToDecimal } from '../../../common/money.ts';
import { MILESTONES_MAX, type Milestone } from '../../../common/schemas/invoices.ts';
import { buttonClass } from '../../components/button-class.ts';
import { InputField, SelectField } from '../../components/forms/fields.tsx';
import { FormError } from '../../components/forms/form-error.tsx';
import { toast } from '../../components/ui/toast.tsx';
import { useProjectTimelines } from '../../lib/project-timelines.ts';
import { DependsOnPicker } from './depends-on-picker.tsx';
import { useFinanceAction } from './finance-api.ts';
import { requestErrors } from './finance-format.ts';

type Basis = 'share' | 'amount';
interface Row {
  key: string;
  id?: string;
  name: string;
  basis: Basis;
  value: string;
  dueDate: string;
  dependsOn: Milestone['dependsOn'];
  /** The dependencies as saved, so one unticked stays listed (and can be ticked again). */
  savedDependsOn: Milestone['dependsOn'];
}

let nextKey = 0;
const newKey = () => `row-${++nextKey}`;

const rowOf = (m: Milestone): Row => ({
  key: m._id,
  id: m._id,
  name: m.name,
  basis: m.shareBp !== null ? 'share' : 'amount',
  value: m.shareBp !== null ? String(m.shareBp / 100) : koboToDecimal(m.amountKobo ?? '0'),
  dueDate: m.dueDate ?? '',
  dependsOn: m.dependsOn,
  savedDependsOn: m.dependsOn,
});

const BASIS_OPTIONS = [
  { value: 'share', label: 'Share of the contract sum (%)' },
  { value: 'amount', label: 'Fixed amount (NGN)' },
] as const;

/**
 * Staff's editor of the whole plan: milestones added, removed, moved up and down, each with a name, an
 * amount or a share and a due date; saved as one PUT (decision 298), its refusals shown at the fields.
 */
export function PlanEditor({ projectId, milestones, onDone }: { projectId: string; milestones: Milestone[]; onDone: () => void }) {
  const id = useId();
  const action = useFinanceAction(projectId);
  const timelines = useProjectTimelines(projectId);
  const [rows, setRows] = useState<Row[]>(() => (milestones.length ? milestones.map(rowOf) : [{ key: newKey(), name: '', basis: 'share', value: '', dueDate: '', dependsOn: [], savedDependsOn: [] }]));
  const { fields, message } = requestErrors(action.error);

  const update = (i: number, patch: Partial<Row>) => setRows((rs) => rs.map((r, j) => (j === i ? { ...r, ...patch } : r)));
  const move = (i: number, by: -1 | 1) =>
    setRows((rs) => {
      const next = [...rs];
      const [row] = next.splice(i, 1);
      next.splice(i + by, 0, row!);
      return next;
    });

  const submit = (e: FormEvent) => {
    e.preventDefault();
    action.mutate(
      {
        kind: 'plan',
        body: {
          milestones: rows.map((r) => ({
            ...(r.id ? { id: r.id } : {}),
            name: r.name,
            ...(r.basis === 'share' ? { share: r.value } : { amount: r.value }),
            dueDate: r.dueDate || null,
            dependsOn: r.dependsOn.map((d) => ({ timelineId: d.timelineId, task: d.task })),
          })),
        },
      },
      {
        onSuccess: () => {
          toast({ title: 'Payment plan saved' });
          onDone();
        },
      },
    );
  };

  return (
    <form onSubmit={submit} noValidate aria-label="Edit payment plan" className="grid gap-3 rounded-lg border border-slate-200 p-3 dark:border-slate-700">
      {rows.length === 0 ? <p className="text-sm text-slate-700 dark:text-slate-300">No milestones: saving clears the plan.</p> : null}
      <ol className="grid gap-3">
        {rows.map((r, i) => {
          const label = `Milestone ${i + 1}`;
          const err = (f: string) => fields[`milestones.${i}.${f}`];
          return (
            <li key={r.key}>
              <fieldset className="grid gap-2 rounded-md border border-slate-300 p-3 dark:border-slate-600">
                <legend className="px-1 text-sm font-semibold">{label}</legend>
                <div className="grid gap-2 sm:grid-cols-2">
                  <InputField label="Name" required value={r.name} maxLength={200} error={err('name')} onChange={(e) => update(i, { name: e.target.value })} />
                  <SelectField label="Basis" value={r.basis} options={BASIS_OPTIONS} onChange={(e) => update(i, { basis: e.target.value as Basis })} />
                  <InputField
                    label={r.basis === 'share' ? 'Share (%)' : 'Amount (NGN)'}
                    required
                    inputMode="decimal"
                    placeholder={r.basis === 'share' ? '30' : '4,500,000.50'}
                    value={r.value}
                    error={err('amount') ?? err('share')}
                    onChange={(e) => update(i, { value: e.target.value })}
                  />
                  <InputField label="Due date" type="date" value={r.dueDate} error={err('dueDate')} onChange={(e) => update(i, { dueDate: e.target.value })} />
                </div>
                <DependsOnPicker
                  milestoneLabel={label}
                  value={r.dependsOn}
                  saved={r.savedDependsOn}
                  onChange={(dependsOn) => update(i, { dependsOn })}
                  timelines={timelines.data?.timelines}
                  loading={timelines.isPending}
                  loadError={timelines.isError ? 'Failed to load the timeline tasks: the current dependencies are kept.' : null}
                  error={err('dependsOn')}
                />
                <div className="flex flex-wrap gap-2">
                  <button type="button" className={buttonClass('ghost')} disabled={i === 0} onClick={() => move(i, -1)} aria-label={`Move ${label} up`}>
                    <ArrowUp className="size-4" aria-hidden="true" />
                    Up
                  </button>
                  <button type="button" className={buttonClass('ghost')} disabled={i === rows.length - 1} onClick={() => move(i, 1)} aria-label={`Move ${label} down`}>
                    <ArrowDown className="size-4" aria-hidden="true" />
                    Down
                  </button>
                  <button type="button" className={buttonClass('danger')} onClick={() => setRows((rs) => rs.filter((_, j) => j !== i))} aria-label={`Remove ${label}`}>
                    <Trash2 className="size-4" aria-hidden="true" />
                    Remove
                  </button>
                </div>
              </fieldset>
            </li>
          );
        })}
      </ol>
      {fields.milestones ? (
        <p id={`${id}-plan-error`} className="text-sm text-red-700 dark:text-red-300">
          {fields.milestones}
        </p>
      ) : null}
      <div>
        <button
          type="button"
          className={buttonClass('secondary')}
          disabled={rows.length >= MILESTONES_MAX}
          onClick={() => setRows((rs) => [...rs, { key: newKey(), name: '', basis: 'share', value: '', dueDate: '', dependsOn: [], savedDependsOn: [] }])}
        >
          <Plus className="size-4" aria-hidden="true" />
          Add milestone
        </button>
      </div>
      <FormError message={message} />
      <div className="flex flex-wrap justify-end gap-2">
        <button type="button" className={buttonClass('secondary')} onClick={onDone}>
          Cancel
        </button>
        <button type="submit" className={buttonClass('primary')} disabled={action.isPending}>
          {action.isPending ? 'Saving...' : 'Save plan'}
        </button>
      </div>
    </form>
  );
}
