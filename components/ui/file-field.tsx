/** A form's chosen file as text; none chosen reads as "", which the action's schema refuses ("Choose a file."). */
export async function fileText(entry: FormDataEntryValue | null): Promise<string> {
  return entry instanceof File ? entry.text() : "";
}

/** A form's file picker, named "file" (read it with {@link fileText}). */
export function FileInput({ label, accept, className = "" }: { label: string; accept: string; className?: string }) {
  return <input type="file" name="file" accept={accept} aria-label={label} className={`text-sm ${className}`} />;
}
