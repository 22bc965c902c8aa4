import Link from "next/link";
import { Fragment } from "react";

/** The trail above a page title: links for the parents, plain text for a last item without href. */
export function Breadcrumbs({
  items,
  className = "mb-2",
}: {
  items: { label: string; href?: string }[];
  className?: string;
}) {
  return (
    <nav className={`text-sm text-slate-500 ${className}`} aria-label="Breadcrumb">
      {items.map((item, index) => (
        <Fragment key={index}>
          {index > 0 ? " / " : null}
          {item.href ? (
            <Link href={item.href} className="hover:underline">
              {item.label}
            </Link>
          ) : (
            item.label
          )}
        </Fragment>
      ))}
    </nav>
  );
}
