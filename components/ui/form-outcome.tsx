import { ErrorNote } from "./primitives";

/**
 * What a form's last send came to: its failure, with the problems it names listed once each (a
 * file's bad lines), or what was done (a status line).
 */
export function FormOutcome({
  message,
  details = [],
  notice,
}: {
  message?: string;
  details?: readonly string[];
  notice?: string;
}) {
  return (
    <>
      {message ? (
        <ErrorNote>
          {message}
          {details.length > 0 ? (
            <ul className="mt-1 list-disc pl-5">
              {details.map((detail) => (
                <li key={detail}>{detail}</li>
              ))}
            </ul>
          ) : null}
        </ErrorNote>
      ) : null}
      {notice ? (
        <p role="status" className="text-emerald-800">
          {notice}
        </p>
      ) : null}
    </>
  );
}
