"use client";

import { Bar, BarChart, CartesianGrid, LabelList, Legend, ReferenceLine, Tooltip, XAxis, YAxis } from "recharts";

import { ChartFrame } from "./chart-frame";
import { formatCoefficient } from "./report-format";

export type AgreementPoint = { name: string; alpha: number | null; kappa: number | null };

const SERIES = [
  { key: "alpha", name: "α between annotators", color: "#6366f1" },
  { key: "kappa", name: "κ human–critic", color: "#f59e0b" },
] as const;

const describe = (value: number | null) => (value === null ? "undefined" : formatCoefficient(value));

/** Krippendorff's α between annotators and Cohen's κ between the final label and the critic, per language. */
export function AgreementChart({ points }: { points: AgreementPoint[] }) {
  const data = points.filter((point) => point.alpha !== null || point.kappa !== null);
  const left = points.filter((point) => point.alpha === null && point.kappa === null).map((point) => point.name);
  const gaps = data.filter((point) => point.alpha === null || point.kappa === null).length;
  const summary = `Agreement per language: ${data.map((point) => `${point.name} alpha ${describe(point.alpha)}, kappa ${describe(point.kappa)}`).join("; ")}.`;
  const notes = [
    gaps > 0 ? `A missing bar is an undefined value (too few double-labelled or resolved items, or no variation).` : "",
    left.length > 0 ? `Not shown, neither value defined: ${left.join(", ")}.` : "",
  ].filter(Boolean);
  return (
    <ChartFrame
      title="Agreement per language (α annotators, κ human–critic)"
      summary={summary}
      isEmpty={data.length === 0}
      emptyText="No agreement figure is defined yet: it needs items labelled by two annotators, or resolved items with a critic verdict."
      note={notes.length > 0 ? notes.join(" ") : undefined}
    >
      <BarChart
        responsive
        data={data}
        margin={{ top: 8, right: 16, bottom: 8, left: 0 }}
        style={{ width: "100%", height: "100%" }}
      >
        <CartesianGrid strokeDasharray="3 3" vertical={false} />
        <XAxis dataKey="name" interval={0} angle={-35} textAnchor="end" height={64} tick={{ fontSize: 12 }} />
        <YAxis domain={[-1, 1]} ticks={[-1, -0.5, 0, 0.5, 1]} width={40} tick={{ fontSize: 12 }} />
        <ReferenceLine y={0} stroke="#94a3b8" />
        <Tooltip
          formatter={(value) => (typeof value === "number" ? formatCoefficient(value) : "undefined")}
          cursor={{ fill: "rgba(99, 102, 241, 0.08)" }}
        />
        <Legend wrapperStyle={{ fontSize: 12 }} />
        {SERIES.map((series) => (
          <Bar
            key={series.key}
            dataKey={series.key}
            name={series.name}
            fill={series.color}
            maxBarSize={32}
            minPointSize={(value) => (value === null || value === undefined ? 0 : 2)}
            isAnimationActive={false}
          >
            <LabelList
              dataKey={series.key}
              position="top"
              fontSize={10}
              fill="#334155"
              formatter={(value: unknown) => (typeof value === "number" ? formatCoefficient(value) : "")}
            />
          </Bar>
        ))}
      </BarChart>
    </ChartFrame>
  );
}
