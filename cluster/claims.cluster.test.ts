// 20 annotators race claims and submits on one overlap-2 campaign through both app instances at
// once — each client's requests alternate between A and B, so a claim made on one instance is
// submitted on the other. The queue's guarantees must hold across processes: exactly 2 labels per
// item, never the same annotator twice on an item, and every acknowledged label in the database.
// Each client goes on until the claim answers "nothing left" (204), through the campaign's tail,
// where the items left are leased by other clients and the claim says so.
import { setTimeout as sleep } from "node:timers/promises";

import pg from "pg";
import { describe, expect, inject, it } from "vitest";

import { callApi, importDataset, instanceA, instanceB, makePerson, pythonRecords } from "./support";

const CLIENTS = 20;
const ITEMS = 40;
const OVERLAP = 2;

describe("claims across two instances", () => {
  it(`${CLIENTS} clients racing claims and submits give every item exactly ${OVERLAP} labels from different people, none lost`, async () => {
    const admin = await makePerson("ADMIN", { languages: [] });
    const dataset = await importDataset(instanceA, admin, pythonRecords(ITEMS, `claims${Date.now()}`));
    const created = await callApi<{ id: string; itemCount: number }>(instanceB, admin.token, "POST", "/campaigns", {
      dataset,
      name: dataset,
      overlap: OVERLAP,
      languages: ["python"],
    });
    expect(created.status).toBe(201);
    expect(created.body.itemCount).toBe(ITEMS);
    const campaignId = created.body.id;
    const annotators = await Promise.all(Array.from({ length: CLIENTS }, () => makePerson("ANNOTATOR")));

    const acknowledged: { itemId: string; userId: string }[] = [];
    const claimMs: number[] = [];
    const submitMs: number[] = [];
    const timed = async <T>(into: number[], call: () => Promise<T>): Promise<T> => {
      const started = performance.now();
      const value = await call();
      into.push(performance.now() - started);
      return value;
    };
    const failures: string[] = [];
    const started = performance.now();
    await Promise.all(
      annotators.map(async (annotator, client) => {
        for (let turn = client; ; turn += 2) {
          const claim = await timed(claimMs, () =>
            callApi<{ item: { id: string } | null }>(
              [instanceA, instanceB][turn % 2],
              annotator.token,
              "POST",
              `/campaigns/${campaignId}/claim`,
            ),
          );
          if (claim.status === 204) return;
          if (claim.status !== 200) {
            failures.push(`claim ${claim.status} ${JSON.stringify(claim.body)}`);
            return;
          }
          // The tail of the campaign: the items left are leased by other clients, who submit in a
          // moment; this client stops only when nothing is left (204).
          if (claim.body.item === null) {
            await sleep(20);
            continue;
          }
          const itemId = claim.body.item.id;
          const submit = await timed(submitMs, () =>
            callApi([instanceB, instanceA][turn % 2], annotator.token, "POST", `/items/${itemId}/annotations`, {
              valid: true,
              categories: [],
              activeMs: 1000,
            }),
          );
          if (submit.status === 201) acknowledged.push({ itemId, userId: annotator.id });
          else failures.push(`submit ${submit.status} ${JSON.stringify(submit.body)}`);
        }
      }),
    );
    const seconds = (performance.now() - started) / 1000;
    const p = (values: number[], q: number) =>
      [...values].sort((a, b) => a - b)[Math.min(values.length - 1, Math.floor(q * values.length))]?.toFixed(0);
    console.log(
      `[cluster] claim race: ${CLIENTS} clients, ${acknowledged.length} labels on ${ITEMS} items in ${seconds.toFixed(2)} s (${(acknowledged.length / seconds).toFixed(1)} labels/s over 2 instances); ` +
        `claim p50 ${p(claimMs, 0.5)} ms p95 ${p(claimMs, 0.95)} ms (${claimMs.length} incl. the final empty claims), submit p50 ${p(submitMs, 0.5)} ms p95 ${p(submitMs, 0.95)} ms`,
    );

    expect(failures).toEqual([]);
    expect(acknowledged).toHaveLength(ITEMS * OVERLAP);
    const client = new pg.Client({ connectionString: inject("databaseUrl") });
    await client.connect();
    try {
      const { rows } = await client.query<{ itemId: string; userId: string }>(
        `SELECT a."itemId", a."userId" FROM "Annotation" a JOIN "CampaignItem" i ON i.id = a."itemId" WHERE i."campaignId" = $1`,
        [campaignId],
      );
      const perItem = new Map<string, string[]>();
      for (const row of rows) perItem.set(row.itemId, [...(perItem.get(row.itemId) ?? []), row.userId]);
      expect(perItem.size).toBe(ITEMS);
      for (const [itemId, userIds] of perItem) {
        expect(userIds, itemId).toHaveLength(OVERLAP);
        expect(new Set(userIds).size, `${itemId} labelled twice by one annotator`).toBe(OVERLAP);
      }
      const stored = new Set(rows.map((row) => `${row.itemId} ${row.userId}`));
      expect(acknowledged.filter((label) => !stored.has(`${label.itemId} ${label.userId}`))).toEqual([]);
    } finally {
      await client.end();
    }
  });
});
