-- What decided an item's final verdict ('adjudication', 'unanimous', 'majority' or 'strict'; NULL
-- while unlabelled or undecided), beside functions/verity_final_valid.sql.
-- lib/metrics/final-label.ts states the same rule. Called by
-- functions/verity_final_labels_of_items.sql.
CREATE OR REPLACE FUNCTION verity_decided_by(rule "FinalRule", n integer, n_valid integer, adj_valid boolean) RETURNS text
LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT CASE
    WHEN adj_valid IS NOT NULL THEN 'adjudication'
    WHEN n = 0 THEN NULL
    WHEN n_valid = n OR n_valid = 0 THEN 'unanimous'
    WHEN rule = 'majority' AND (n_valid * 2 > n OR (n - n_valid) * 2 > n) THEN 'majority'
    WHEN rule = 'strict' THEN 'strict'
  END
$$;
