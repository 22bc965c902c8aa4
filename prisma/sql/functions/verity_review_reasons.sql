-- The review queues an item is in, as a bit mask (2^k for QUEUES[k] of lib/review/queues.ts:
-- annotators 1, critic 2, execution 4, flagged 8), `crit` being the critic as the reader may see it.
-- An item with no label or with an adjudication is in none. The one statement of the queues.
-- Called by functions/verity_final_labels_of_items.sql and the review queues (lib/server/review).
CREATE OR REPLACE FUNCTION verity_review_reasons(n integer, n_valid integer, adj_valid boolean, final_valid boolean,
                                      crit boolean, exec_valid boolean, flagged boolean) RETURNS integer
LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT CASE WHEN n = 0 OR adj_valid IS NOT NULL THEN 0 ELSE
      (CASE WHEN n_valid > 0 AND n_valid < n THEN 1 ELSE 0 END)
    | (CASE WHEN final_valid IS NOT NULL AND crit IS NOT NULL AND final_valid <> crit THEN 2 ELSE 0 END)
    | (CASE WHEN coalesce((final_valid AND exec_valid = false) OR (NOT final_valid AND exec_valid AND crit), false) THEN 4 ELSE 0 END)
    | (CASE WHEN flagged THEN 8 ELSE 0 END)
  END
$$;
