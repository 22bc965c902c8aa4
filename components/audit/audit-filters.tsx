import Link from "next/link";

import { Button, Input, Select } from "@/components/ui/primitives";

import { ACTION_PREFIXES, type AuditQuery, TARGET_TYPES } from "./audit-query";

/** Action prefix, target type, campaign, actor email and start date, as a plain GET form. */
export function AuditFilters({ query, campaigns }: { query: AuditQuery; campaigns: { id: string; name: string }[] }) {
  const label = "block text-xs font-medium text-slate-600";
  return (
    <form
      method="get"
      action="/admin/audit"
      className="mb-4 flex flex-wrap items-end gap-3 text-sm"
      aria-label="Filters"
    >
      <div className="space-y-1">
        <label htmlFor="audit-action" className={label}>
          Action
        </label>
        <Select id="audit-action" name="action" defaultValue={query.action ?? ""}>
          <option value="">Any</option>
          {ACTION_PREFIXES.map((prefix) => (
            <option key={prefix} value={prefix}>
              {prefix}*
            </option>
          ))}
        </Select>
      </div>
      <div className="space-y-1">
        <label htmlFor="audit-target" className={label}>
          Target type
        </label>
        <Select id="audit-target" name="targetType" defaultValue={query.targetType ?? ""}>
          <option value="">Any</option>
          {TARGET_TYPES.map((type) => (
            <option key={type} value={type}>
              {type}
            </option>
          ))}
        </Select>
      </div>
      <div className="space-y-1">
        <label htmlFor="audit-campaign" className={label}>
          Campaign
        </label>
        <Select id="audit-campaign" name="campaign" defaultValue={query.campaign ?? ""}>
          <option value="">Any</option>
          {campaigns.map((campaign) => (
            <option key={campaign.id} value={campaign.id}>
              {campaign.name}
            </option>
          ))}
        </Select>
      </div>
      <div className="space-y-1">
        <label htmlFor="audit-actor" className={label}>
          Actor email
        </label>
        <Input
          id="audit-actor"
          name="actor"
          type="search"
          defaultValue={query.actor ?? ""}
          placeholder="contains…"
          className="w-56"
        />
      </div>
      <div className="space-y-1">
        <label htmlFor="audit-since" className={label}>
          Since
        </label>
        <Input id="audit-since" name="since" type="date" defaultValue={query.since ?? ""} />
      </div>
      <Button type="submit" variant="secondary">
        Filter
      </Button>
      {query.action || query.targetType || query.campaign || query.actor || query.since ? (
        <Link href="/admin/audit" className="pb-1.5 text-indigo-700 hover:underline">
          Clear filters
        </Link>
      ) : null}
    </form>
  );
}
