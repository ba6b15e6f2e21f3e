// A labelled group of radio buttons (a fieldset with a legend), for small exclusive choices such
// as a grant's scope. Arrow keys move between options (native radio behaviour).
import { useId, type ReactNode } from 'react';
import { cx } from './button';

export interface RadioOption<T extends string> {
  value: T;
  label: ReactNode;
  hint?: ReactNode;
}

export function RadioGroup<T extends string>({
  legend,
  name,
  value,
  options,
  onChange,
  className,
}: {
  legend: ReactNode;
  name?: string;
  value: T;
  options: Array<RadioOption<T>>;
  onChange(value: T): void;
  className?: string;
}) {
  const autoName = useId();
  return (
    <fieldset className={cx('ui-radio-group', className)}>
      <legend className="ui-field__label">{legend}</legend>
      {options.map((option) => (
        <label key={option.value} className="ui-radio">
          <input
            type="radio"
            name={name ?? autoName}
            value={option.value}
            checked={option.value === value}
            onChange={() => onChange(option.value)}
          />
          <span>
            {option.label}
            {option.hint && <span className="ui-field__hint"> {option.hint}</span>}
          </span>
        </label>
      ))}
    </fieldset>
  );
}
