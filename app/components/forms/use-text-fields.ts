import { useRef, useState, type ChangeEvent } from 'react';

type TextControl = HTMLInputElement | HTMLTextAreaElement;

/**
 * The typed values of a public form's text fields, the one field marked invalid (cleared as soon as
 * it is edited) and each field's element, so a refused field can take the focus. `bind` gives the
 * props of the shared InputField and TextAreaField.
 */
export function useTextFields<F extends string>(empty: Record<F, string>) {
  const [values, setValues] = useState(empty);
  const [invalid, setInvalid] = useState<F | null>(null);
  const elements = useRef(new Map<F, HTMLElement | null>());

  const bind = (name: F, label: string, required = false) => ({
    name,
    label,
    required,
    value: values[name],
    invalid: invalid === name,
    onChange: (e: ChangeEvent<TextControl>) => {
      setValues((v) => ({ ...v, [name]: e.target.value }));
      if (invalid === name) setInvalid(null);
    },
    inputRef: (el: TextControl | null) => {
      elements.current.set(name, el);
    },
  });

  /** Marks the field invalid and moves the focus to it. */
  const refuse = (name: F) => {
    setInvalid(name);
    elements.current.get(name)?.focus();
  };

  return { values, setValues, invalid, setInvalid, elements, bind, refuse };
}
