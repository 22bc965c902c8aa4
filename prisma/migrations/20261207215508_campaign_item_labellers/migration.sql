-- Who labelled each item and their verdicts, kept on the item (issue 41: the agreement count pairs
-- annotators from these instead of a self-join of every label).
-- AlterTable
ALTER TABLE "CampaignItem" ADD COLUMN     "labelValids" BOOLEAN[] DEFAULT ARRAY[]::BOOLEAN[],
ADD COLUMN     "labellerIds" TEXT[] DEFAULT ARRAY[]::TEXT[];

-- The items' labels as they stand; from here on verity_annotations_changed keeps both columns in the
-- transaction of every label written, changed or removed.
UPDATE "CampaignItem" i SET "labellerIds" = k.ids, "labelValids" = k.valids
FROM (SELECT "itemId", array_agg("userId" ORDER BY "userId"), array_agg(valid ORDER BY "userId")
      FROM "Annotation" GROUP BY 1) AS k(item_id, ids, valids)
WHERE i.id = k.item_id;
