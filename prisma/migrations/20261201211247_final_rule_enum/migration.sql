-- A campaign's final rule becomes an enum (it was free text checked only by the app), and the two
-- SQL rules that decide a verdict take it as that type.

CREATE TYPE "FinalRule" AS ENUM ('consensus', 'majority', 'strict');

-- A trigger's column list pins the column's type: set it aside while the type changes.
DROP TRIGGER "Campaign_keep_final_labels" ON "Campaign";
ALTER TABLE "Campaign" ALTER COLUMN "finalRule" DROP DEFAULT;
ALTER TABLE "Campaign" ALTER COLUMN "finalRule" TYPE "FinalRule" USING "finalRule"::"FinalRule";
ALTER TABLE "Campaign" ALTER COLUMN "finalRule" SET DEFAULT 'consensus';
CREATE TRIGGER "Campaign_keep_final_labels" AFTER UPDATE OF "finalRule" ON "Campaign"
  FOR EACH ROW WHEN (OLD."finalRule" IS DISTINCT FROM NEW."finalRule")
  EXECUTE FUNCTION verity_campaign_rule_changed();

-- The same bodies as in 20261201140000_final_labels, over the enum. Callers pass
-- Campaign."finalRule", which the text versions no longer accept; literals resolve to these.
DROP FUNCTION verity_final_valid(text, integer, integer, boolean);
DROP FUNCTION verity_decided_by(text, integer, integer, boolean);

CREATE FUNCTION verity_final_valid(rule "FinalRule", n integer, n_valid integer, adj_valid boolean) RETURNS boolean
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

CREATE FUNCTION verity_decided_by(rule "FinalRule", n integer, n_valid integer, adj_valid boolean) RETURNS text
LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT CASE
    WHEN adj_valid IS NOT NULL THEN 'adjudication'
    WHEN n = 0 THEN NULL
    WHEN n_valid = n OR n_valid = 0 THEN 'unanimous'
    WHEN rule = 'majority' AND (n_valid * 2 > n OR (n - n_valid) * 2 > n) THEN 'majority'
    WHEN rule = 'strict' THEN 'strict'
  END
$$;
