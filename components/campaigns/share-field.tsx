import { Field, Input } from "@/components/ui/primitives";

/**
 * A share of a campaign's items (0 to `max`, in steps of 0.05): the agreement subset of the
 * new-campaign form, and the gold share there and in the campaign's settings.
 */
export function ShareField({
  label,
  id,
  name,
  max,
  defaultValue,
  hint,
  error,
  className,
}: {
  label: string;
  id: string;
  name: string;
  max: number;
  defaultValue: number;
  hint: string;
  error?: string;
  className?: string;
}) {
  return (
    <Field label={label} htmlFor={id} hint={hint} error={error}>
      <Input
        id={id}
        name={name}
        type="number"
        min={0}
        max={max}
        step={0.05}
        defaultValue={defaultValue}
        className={className}
      />
    </Field>
  );
}

/** A campaign's gold share (0–0.5), in the new-campaign form and the campaign's settings. */
export function GoldShareField(props: { defaultValue: number; hint: string; error?: string; className?: string }) {
  return <ShareField label="Gold share" id="campaign-gold-share" name="goldShare" max={0.5} {...props} />;
}
