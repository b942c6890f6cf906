import { createContext, useContext, useId, useState, type ComponentType } from 'react';
import type { z } from 'zod';
import { imageRefSchema, pdfRefSchema } from '../../../common/content/media-refs.ts';
import { LINK_FIELDS } from '../../../common/schemas/links.ts';
import { inputClass, labelClass } from '../../components/forms/field-classes.ts';
import { countLimits } from './count-limits.ts';
import { RecordList } from './record-list.tsx';
import { TextList } from './text-list.tsx';

// A form drawn from a section's zod schema (issue 24): text, e-mail, web address, number and choice
// inputs for plain fields, a fieldset for a nested object, an image field with the media picker,
// and list editors for lists of texts and lists of records (decision 291).

type Doc = Record<string, unknown>;
export type FieldErrors = Record<string, string>;

/** Names that the field's key does not say well enough. */
const LABELS: Record<string, string> = {
  addressi: 'United States office address',
  addressii: 'Equipment yard address',
  address: 'Head office address',
  refineryAddress: 'Refinery office address',
  siteUrl: 'Website address',
  whatsapp: 'WhatsApp',
  email: 'E-mail',
  supportEmail: 'Support e-mail',
  features: 'Key features',
};

/** What an image field is drawn with: the media feature's picker field, handed in by the route (features do not import each other). */
export interface ImageFieldProps {
  label: string;
  value: string;
  message?: string;
  onChange: (value: string) => void;
  /** What the field holds: an image (the default) or a PDF (a certificate's, decision 295). */
  kind?: 'image' | 'pdf';
  /** The field may be left empty ('Remove' clears it to ''). */
  optional?: boolean;
}
export const ImageFieldContext = createContext<ComponentType<ImageFieldProps> | null>(null);

/** Without a picker (never in the app): the field's value as text. */
function PlainImageField({ label, value, message, onChange }: ImageFieldProps) {
  const id = useId();
  return (
    <div>
      <label htmlFor={id} className={labelClass}>
        {label}
      </label>
      <input id={id} className={inputClass} value={value} aria-invalid={Boolean(message) || undefined} aria-describedby={message ? `${id}-error` : undefined} onChange={(e) => onChange(e.target.value)} />
      <Message id={`${id}-error`} message={message} />
    </div>
  );
}

/** What one item of a list is called ('Add team member'), by the list's key. */
const SINGULAR: Record<string, string> = {
  members: 'Team member',
  slides: 'Slide',
  services: 'Service',
  projects: 'Project',
  categories: 'Category',
  certificates: 'Certificate',
  regulatoryCompliance: 'Requirement',
  partners: 'Partner',
  offices: 'Office',
  values: 'Value',
  keyStrengths: 'Key strength',
  steps: 'Step',
  benefits: 'Benefit',
  headlineFacts: 'Fact',
  projectStatistics: 'Statistic',
  equipmentStatistics: 'Statistic',
  whyChooseUs: 'Reason',
  items: 'Item',
  story: 'Paragraph',
  details: 'Detail',
  features: 'Key feature',
  hours: 'Line',
};
const singularOf = (key: string) => SINGULAR[key] ?? 'Item';
/** Fields whose text runs to sentences: a text box rather than one line. */
const LONG = /^(description|bio|quote|story|details|subtitle|mission|vision|newsletterText)$/;

const labelOf = (key: string) => LABELS[key] ?? key.replace(/([A-Z])/g, ' $1').replace(/^./, (c) => c.toUpperCase()).replace(/ ([A-Z])/g, (_, c: string) => ` ${c.toLowerCase()}`);

interface Def {
  type: string;
  format?: string;
  innerType?: z.ZodType;
  element?: z.ZodType;
  entries?: Record<string, string>;
  shape?: Record<string, z.ZodType>;
}
const defOf = (schema: z.ZodType) => (schema as unknown as { def: Def }).def;

/** The schema without its optional wrapper, and whether it had one. */
function unwrap(schema: z.ZodType): { inner: z.ZodType; optional: boolean } {
  const def = defOf(schema);
  return def.type === 'optional' && def.innerType ? { inner: unwrap(def.innerType).inner, optional: true } : { inner: schema, optional: false };
}

/** The first error at or under this path (a list's own rule, or one of its items). */
const errorAt = (errors: FieldErrors, path: string) => errors[path] ?? Object.entries(errors).find(([k]) => k.startsWith(`${path}.`))?.[1];

interface FieldArgs {
  name: string;
  path: string;
  schema: z.ZodType;
  value: unknown;
  errors: FieldErrors;
  onChange: (value: unknown) => void;
}

function Message({ id, message }: { id: string; message?: string }) {
  return message ? (
    <p id={id} className="mt-1 text-sm text-red-800 dark:text-red-300">
      {message}
    </p>
  ) : null;
}

/** An empty record of an object schema, for 'Add': empty texts, the first choice, empty lists; optional fields left out. */
function emptyOf(schema: z.ZodType): unknown {
  const { inner, optional } = unwrap(schema);
  if (optional) return undefined;
  const def = defOf(inner);
  if (def.type === 'object' && def.shape) return Object.fromEntries(Object.entries(def.shape).map(([k, v]) => [k, emptyOf(v)]).filter(([, v]) => v !== undefined));
  if (def.type === 'array') return [];
  if (def.type === 'enum' && def.entries) return Object.values(def.entries)[0];
  if (def.type === 'number') return undefined;
  return '';
}

function Field(args: FieldArgs) {
  const { name, path, schema, value, errors, onChange } = args;
  const id = useId();
  const ImageInput = useContext(ImageFieldContext) ?? PlainImageField;
  // Decided once: a field that turned into a text box mid-word would lose the focus.
  const [startsLong] = useState(() => typeof value === 'string' && value.length > 90);
  const { inner, optional } = unwrap(schema);
  const def = defOf(inner);
  if (def.type === 'object' && def.shape) {
    return (
      <fieldset className="rounded-md border border-slate-300 p-4 dark:border-slate-700">
        <legend className="px-1 text-sm font-semibold">{labelOf(name)}</legend>
        <SchemaFields schema={inner as z.ZodObject} value={(value ?? {}) as Doc} errors={errors} prefix={path} onChange={(v) => onChange(v)} />
      </fieldset>
    );
  }
  if (def.type === 'array' && def.element) {
    const element = unwrap(def.element).inner;
    const limits = countLimits(inner);
    if (defOf(element).type === 'object') {
      return (
        <RecordList
          limits={limits}
          label={labelOf(name)}
          singular={singularOf(name)}
          path={path}
          value={(value as Doc[] | undefined) ?? []}
          errors={errors}
          emptyRecord={() => emptyOf(element) as Doc}
          renderFields={(record, prefix, change) => <SchemaFields schema={element as z.ZodObject} value={record} errors={errors} prefix={prefix} onChange={change} />}
          onChange={onChange}
        />
      );
    }
    return (
      <TextList
        limits={limits}
        label={labelOf(name)}
        singular={singularOf(name)}
        path={path}
        value={(value as string[] | undefined) ?? []}
        errors={errors}
        long={LONG.test(name)}
        onChange={onChange}
      />
    );
  }
  const message = errorAt(errors, path);
  if (inner === imageRefSchema)
    return <ImageInput label={labelOf(name)} value={String(value ?? '')} message={message} onChange={onChange} />;
  if (inner === pdfRefSchema) {
    const label = name === 'pdf' ? 'PDF' : labelOf(name);
    return (
      <ImageInput
        kind="pdf"
        optional={optional}
        label={label}
        value={String(value ?? '')}
        message={message}
        onChange={(v) => onChange(v || undefined)}
      />
    );
  }
  const common = {
    id,
    'aria-invalid': Boolean(message) || undefined,
    'aria-describedby': message ? `${id}-error` : undefined,
    'aria-required': !optional || undefined,
  };
  let input;
  if (def.type === 'enum' && def.entries) {
    input = (
      <select {...common} className={inputClass} value={String(value ?? '')} onChange={(e) => onChange(e.target.value)}>
        {Object.values(def.entries).map((v) => (
          <option key={v}>{v}</option>
        ))}
      </select>
    );
  } else if (def.type === 'number') {
    input = (
      <input
        {...common}
        type="number"
        inputMode="numeric"
        className={inputClass}
        value={value === undefined || value === null ? '' : String(value)}
        onChange={(e) => onChange(e.target.value === '' ? undefined : Number(e.target.value))}
      />
    );
  } else {
    // A link field (decision 300) is a web address, whatever its name says (a member's WhatsApp link).
    const type = LINK_FIELDS.has(inner) ? 'url' : def.format === 'email' ? 'email' : /phone|whatsapp$/i.test(name) && !def.format ? 'tel' : 'text';
    const long = LONG.test(name) || startsLong;
    input = long ? (
      <textarea {...common} rows={3} className={inputClass} value={String(value ?? '')} onChange={(e) => onChange(optional && !e.target.value ? undefined : e.target.value)} />
    ) : (
      <input {...common} type={type} className={inputClass} value={String(value ?? '')} onChange={(e) => onChange(optional && !e.target.value ? undefined : e.target.value)} />
    );
  }
  return (
    <div>
      <label htmlFor={id} className={labelClass}>
        {labelOf(name)}
        {optional ? <span className="font-normal text-slate-600 dark:text-slate-400"> (optional)</span> : null}
      </label>
      {input}
      <Message id={`${id}-error`} message={message} />
    </div>
  );
}

/** Every field of an object schema, each wired to its error by its path ('social.facebook'). */
export function SchemaFields({
  schema,
  value,
  errors,
  onChange,
  prefix = '',
}: {
  schema: z.ZodObject;
  value: Doc;
  errors: FieldErrors;
  onChange: (value: Doc) => void;
  prefix?: string;
}) {
  return (
    <div className="space-y-4">
      {Object.entries(schema.shape as Record<string, z.ZodType>).map(([key, field]) => {
        const path = prefix ? `${prefix}.${key}` : key;
        return <Field key={key} name={key} path={path} schema={field} value={value[key]} errors={errors} onChange={(v) => onChange({ ...value, [key]: v })} />;
      })}
    </div>
  );
}
