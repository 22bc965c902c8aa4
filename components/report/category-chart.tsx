"use client";

import { Bar, BarChart, CartesianGrid, Legend, Tooltip, XAxis, YAxis } from "recharts";

import { ChartFrame } from "./chart-frame";

// Distinguishable on white and in a legend; cycles past sixteen categories.
const PALETTE = [
  "#6366f1",
  "#f59e0b",
  "#10b981",
  "#ef4444",
  "#0ea5e9",
  "#a855f7",
  "#84cc16",
  "#ec4899",
  "#14b8a6",
  "#f97316",
  "#64748b",
  "#eab308",
  "#8b5cf6",
  "#22c55e",
  "#e11d48",
  "#0891b2",
];

type Props = {
  /** Per language (display name) the number of invalid items per category key. */
  languages: { name: string; counts: Record<string, number> }[];
  categoryLabels: Record<string, string>;
};

/** Error categories of invalid items, stacked per language. */
export function CategoryChart({ languages, categoryLabels }: Props) {
  const totals: Record<string, number> = {};
  for (const language of languages)
    for (const [key, count] of Object.entries(language.counts)) totals[key] = (totals[key] ?? 0) + count;
  const keys = Object.keys(totals).sort((a, b) => totals[b] - totals[a] || a.localeCompare(b));
  const data = languages
    .filter((language) => Object.values(language.counts).some((count) => count > 0))
    .map((language) => ({ name: language.name, ...language.counts }));
  const label = (key: string) => categoryLabels[key] ?? key;
  const summary = `Error categories per language: ${data
    .map(
      (datum) =>
        `${datum.name}: ${keys
          .filter((key) => (datum as Record<string, unknown>)[key])
          .map((key) => `${label(key)} ${String((datum as Record<string, unknown>)[key])}`)
          .join(", ")}`,
    )
    .join("; ")}.`;
  return (
    <ChartFrame
      title="Error categories per language"
      summary={summary}
      isEmpty={data.length === 0}
      emptyText="No item is judged invalid yet, so there are no error categories to show."
      note="Counts of invalid items; an item with several categories counts once in each."
      height={360}
    >
      <BarChart
        responsive
        data={data}
        margin={{ top: 8, right: 16, bottom: 8, left: 0 }}
        style={{ width: "100%", height: "100%" }}
      >
        <CartesianGrid strokeDasharray="3 3" vertical={false} />
        <XAxis dataKey="name" interval={0} angle={-35} textAnchor="end" height={64} tick={{ fontSize: 12 }} />
        <YAxis allowDecimals={false} width={40} tick={{ fontSize: 12 }} />
        <Tooltip cursor={{ fill: "rgba(99, 102, 241, 0.08)" }} />
        <Legend wrapperStyle={{ fontSize: 12 }} />
        {keys.map((key, index) => (
          <Bar
            key={key}
            dataKey={key}
            name={label(key)}
            stackId="categories"
            fill={PALETTE[index % PALETTE.length]}
            maxBarSize={48}
            isAnimationActive={false}
          />
        ))}
      </BarChart>
    </ChartFrame>
  );
}
