import { Field, Input } from "@/components/ui/primitives";

/** A campaign's gold share (0–0.5), in the new-campaign form and the campaign's settings. */
export function GoldShareField({
  defaultValue,
  hint,
  error,
  className,
}: {
  defaultValue: number;
  hint: string;
  error?: string;
  className?: string;
}) {
  return (
    <Field label="Gold share" htmlFor="campaign-gold-share" hint={hint} error={error}>
      <Input
        id="campaign-gold-share"
        name="goldShare"
        type="number"
        min={0}
        max={0.5}
        step={0.05}
        defaultValue={defaultValue}
        className={className}
      />
    </Field>
  );
}
