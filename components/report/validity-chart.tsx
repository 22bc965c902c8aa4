"use client";

import {
  Bar,
  BarChart,
  CartesianGrid,
  ErrorBar,
  Legend,
  ReferenceLine,
  Tooltip,
  type TooltipContentProps,
  XAxis,
  YAxis,
} from "recharts";

import { ChartFrame } from "./chart-frame";
import { formatInterval, formatPercent } from "./report-format";

export type ValidityPoint = { name: string; validity: number | null; ci: [number, number] | null; resolved: number };

type Datum = { name: string; validity: number; error: [number, number]; ci: [number, number]; resolved: number };

/** Validity per language in percent, with its Wilson 95% interval as error bars; languages without resolved items are left out. */
export function ValidityChart({ points, pooled }: { points: ValidityPoint[]; pooled: number | null }) {
  const data: Datum[] = points.flatMap((point) =>
    point.validity !== null && point.ci
      ? [
          {
            name: point.name,
            validity: 100 * point.validity,
            error: [100 * (point.validity - point.ci[0]), 100 * (point.ci[1] - point.validity)],
            ci: point.ci,
            resolved: point.resolved,
          },
        ]
      : [],
  );
  const left = points.filter((point) => point.validity === null).map((point) => point.name);
  const summary = `Validity per language with 95% intervals: ${data.map((datum) => `${datum.name} ${formatPercent(datum.validity / 100)} ${formatInterval(datum.ci)}, n = ${datum.resolved}`).join("; ")}.`;
  return (
    <ChartFrame
      title="Validity per language (95% Wilson interval)"
      summary={summary}
      isEmpty={data.length === 0}
      emptyText="No item is resolved yet: validity appears once labels agree or are adjudicated."
      note={left.length > 0 ? `Not shown, no resolved items yet: ${left.join(", ")}.` : undefined}
    >
      <BarChart
        responsive
        data={data}
        margin={{ top: 16, right: 16, bottom: 8, left: 0 }}
        style={{ width: "100%", height: "100%" }}
      >
        <CartesianGrid strokeDasharray="3 3" vertical={false} />
        <XAxis dataKey="name" interval={0} angle={-35} textAnchor="end" height={64} tick={{ fontSize: 12 }} />
        <YAxis
          domain={[0, 100]}
          ticks={[0, 20, 40, 60, 80, 100]}
          tickFormatter={(value: number) => `${value}%`}
          width={48}
          tick={{ fontSize: 12 }}
        />
        <Tooltip content={ValidityTooltip} cursor={{ fill: "rgba(99, 102, 241, 0.08)" }} />
        <Legend verticalAlign="top" height={28} wrapperStyle={{ fontSize: 12 }} />
        {pooled !== null ? (
          <ReferenceLine
            y={100 * pooled}
            stroke="#64748b"
            strokeDasharray="4 4"
            label={{
              value: `pooled ${formatPercent(pooled)}`,
              position: "insideTopRight",
              fontSize: 11,
              fill: "#475569",
            }}
          />
        ) : null}
        <Bar
          dataKey="validity"
          name="Validity, with 95% interval"
          fill="#6366f1"
          maxBarSize={48}
          minPointSize={2}
          isAnimationActive={false}
        >
          <ErrorBar dataKey="error" width={6} strokeWidth={1.5} stroke="#1e293b" isAnimationActive={false} />
        </Bar>
      </BarChart>
    </ChartFrame>
  );
}

function ValidityTooltip({ active, payload }: TooltipContentProps) {
  const datum = active ? (payload[0]?.payload as Datum | undefined) : undefined;
  if (!datum) return null;
  return (
    <div className="rounded-md bg-white px-3 py-2 text-xs shadow ring-1 ring-slate-200">
      <p className="font-semibold text-slate-900">{datum.name}</p>
      <p className="tabular-nums text-slate-700">
        {formatPercent(datum.validity / 100)} {formatInterval(datum.ci)} · n = {datum.resolved}
      </p>
    </div>
  );
}
