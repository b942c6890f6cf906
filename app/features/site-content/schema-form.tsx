import { useId, useState } from 'react';
import type { z } from 'zod';
import { inputClass, labelClass } from '../../components/forms/field-classes.ts';

// A form drawn from a section's zod schema (issue 24): text, e-mail, web address, number and choice
// inputs for plain fields, a fieldset for a nested object, one line per item for a list of texts,
// and a JSON box for a list of records (the pages' own editors for those come with the next step).

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
};

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

/** A list of records as JSON: kept as typed text until it parses, so a half-typed edit is not lost. */
function JsonField({ name, path, value, errors, onChange }: FieldArgs) {
  const id = useId();
  const [text, setText] = useState(() => JSON.stringify(value, null, 2));
  const [parseError, setParseError] = useState<string>();
  const message = parseError ?? errorAt(errors, path);
  return (
    <div>
      <label htmlFor={id} className={labelClass}>
        {labelOf(name)} <span className="font-normal text-slate-600 dark:text-slate-400">(JSON)</span>
      </label>
      <textarea
        id={id}
        rows={Math.min(16, text.split('\n').length + 1)}
        className={`${inputClass} font-mono text-xs`}
        value={text}
        spellCheck={false}
        aria-invalid={Boolean(message) || undefined}
        aria-describedby={message ? `${id}-error` : undefined}
        onChange={(e) => {
          setText(e.target.value);
          try {
            onChange(JSON.parse(e.target.value));
            setParseError(undefined);
          } catch {
            setParseError('This is not valid JSON yet');
          }
        }}
      />
      <Message id={`${id}-error`} message={message} />
    </div>
  );
}

function Field(args: FieldArgs) {
  const { name, path, schema, value, errors, onChange } = args;
  const id = useId();
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
  if (def.type === 'array' && def.element && defOf(def.element).type !== 'string') return <JsonField {...args} />;
  const message = errorAt(errors, path);
  const common = {
    id,
    'aria-invalid': Boolean(message) || undefined,
    'aria-describedby': message ? `${id}-error` : undefined,
    'aria-required': !optional || undefined,
  };
  let input;
  if (def.type === 'array') {
    const lines = (value as string[] | undefined) ?? [];
    input = (
      <textarea
        {...common}
        rows={Math.max(3, lines.length + 1)}
        className={inputClass}
        value={lines.join('\n')}
        onChange={(e) => onChange(e.target.value.split('\n'))}
      />
    );
  } else if (def.type === 'enum' && def.entries) {
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
    const type = def.format === 'email' ? 'email' : def.format === 'url' ? 'url' : /phone|whatsapp$/i.test(name) && !def.format ? 'tel' : 'text';
    const long = typeof value === 'string' && value.length > 90;
    input = long ? (
      <textarea {...common} rows={3} className={inputClass} value={value} onChange={(e) => onChange(optional && !e.target.value ? undefined : e.target.value)} />
    ) : (
      <input {...common} type={type} className={inputClass} value={String(value ?? '')} onChange={(e) => onChange(optional && !e.target.value ? undefined : e.target.value)} />
    );
  }
  return (
    <div>
      <label htmlFor={id} className={labelClass}>
        {labelOf(name)}
        {def.type === 'array' ? <span className="font-normal text-slate-600 dark:text-slate-400"> (one a line)</span> : null}
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
