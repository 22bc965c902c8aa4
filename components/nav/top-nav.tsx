import Link from "next/link";

import { SignOutButton } from "@/components/auth/signout-button";
import { type Actor, can } from "@/lib/server/auth/permissions";

export function TopNav({ actor }: { actor: Actor }) {
  const links = [
    { href: "/datasets", label: "Datasets", visible: can(actor, "records:read") },
    { href: "/campaigns", label: "Campaigns", visible: can(actor, "records:read") },
    { href: "/repairs", label: "Repairs", visible: can(actor, "revisions:check") },
    { href: "/jobs", label: "Jobs", visible: can(actor, "records:read") },
    { href: "/admin/import", label: "Import", visible: can(actor, "imports:write") },
    { href: "/critics", label: "Critics", visible: can(actor, "critics:read") },
    { href: "/admin/users", label: "Users", visible: can(actor, "users:admin") },
    { href: "/admin/audit", label: "Audit log", visible: can(actor, "audit:read") },
    { href: "/admin/sandbox", label: "Sandbox", visible: can(actor, "sandbox:admin") },
    { href: "/settings/tokens", label: "API tokens", visible: can(actor, "tokens:write") },
  ];
  return (
    <header className="border-b border-slate-200 bg-white">
      <nav className="mx-auto flex max-w-7xl flex-wrap items-center gap-x-6 gap-y-2 px-4 py-2.5" aria-label="Main">
        <Link href="/datasets" className="font-semibold text-indigo-700">
          Verity
        </Link>
        <ul className="flex flex-wrap gap-x-4 gap-y-1 text-sm">
          {links
            .filter((link) => link.visible)
            .map((link) => (
              <li key={link.href}>
                <Link href={link.href} className="text-slate-700 hover:text-indigo-700">
                  {link.label}
                </Link>
              </li>
            ))}
        </ul>
        <div className="ml-auto flex items-center gap-3 text-sm text-slate-600">
          <span title={actor.email}>
            {actor.name ?? actor.email} · {actor.role.toLowerCase()}
          </span>
          <SignOutButton />
        </div>
      </nav>
    </header>
  );
}
