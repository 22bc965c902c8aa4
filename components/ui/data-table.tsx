import type { ReactNode } from "react";

export type Column = { label: ReactNode; numeric?: boolean; title?: string; className?: string };

/**
 * A table with one header row; the rows are the children. `boxed` sets it on its own white card
 * with a shaded header (the listing pages); otherwise it sits plainly inside an existing card.
 */
export function DataTable({
  label,
  columns,
  boxed = false,
  bodyClassName = "",
  children,
}: {
  label?: string;
  columns: Column[];
  boxed?: boolean;
  bodyClassName?: string;
  children: ReactNode;
}) {
  const cell = boxed ? "px-3 py-2" : "py-2 pr-3";
  return (
    <div className={boxed ? "overflow-x-auto rounded-lg bg-white shadow-sm ring-1 ring-slate-200" : "overflow-x-auto"}>
      <table className="min-w-full divide-y divide-slate-200 text-sm" aria-label={label}>
        <thead
          className={`${boxed ? "bg-slate-50 " : ""}text-left text-xs font-medium uppercase tracking-wide text-slate-500`}
        >
          <tr>
            {columns.map((column, index) => (
              <th
                key={index}
                scope="col"
                title={column.title}
                className={`${cell}${column.numeric ? " text-right" : ""}${column.className ? ` ${column.className}` : ""}`}
              >
                {column.label}
              </th>
            ))}
          </tr>
        </thead>
        <tbody className={`divide-y divide-slate-100${bodyClassName ? ` ${bodyClassName}` : ""}`}>{children}</tbody>
      </table>
    </div>
  );
}

/** The one row of a table with nothing to list, across its `columns`. */
export function EmptyRow({
  columns,
  className = "",
  children,
}: {
  columns: number;
  className?: string;
  children: ReactNode;
}) {
  return (
    <tr>
      <td colSpan={columns} className={`text-slate-500 ${className}`}>
        {children}
      </td>
    </tr>
  );
}
