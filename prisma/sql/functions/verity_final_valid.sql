-- The final verdict of an item under its campaign's final rule, from its label count `n`, how many
-- said valid and the adjudication's verdict (which wins); NULL while unlabelled or undecided.
-- lib/metrics/final-label.ts states the same rule in TypeScript. Called by
-- functions/verity_final_labels_of_items.sql.
CREATE OR REPLACE FUNCTION verity_final_valid(rule "FinalRule", n integer, n_valid integer, adj_valid boolean) RETURNS boolean
LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT CASE
    WHEN adj_valid IS NOT NULL THEN adj_valid
    WHEN n = 0 THEN NULL
    WHEN n_valid = n THEN true
    WHEN n_valid = 0 THEN false
    WHEN rule = 'majority' AND n_valid * 2 > n THEN true
    WHEN rule = 'majority' AND (n - n_valid) * 2 > n THEN false
    WHEN rule = 'strict' THEN false
  END
$$;
