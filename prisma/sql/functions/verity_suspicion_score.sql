-- How suspicious a record looks, for ordering a suspicion campaign: lib/evidence/suspicion.ts
-- (suspicionScore) states the rule and this is the same sum in the same order — the points of each
-- evidence reason the record is in (weak tests 2, flaky 4, solved by no model 3, critic and
-- execution disagree 3), then half of (1 − mutation score) when measured and half of (1 − solved ÷
-- total) when solutions ran. lib/server/reports/suspicion-sampling.int.test.ts holds the two equal.
CREATE OR REPLACE FUNCTION verity_suspicion_score(
  mutation_score double precision,
  flaky boolean,
  solvers_total integer,
  solvers_solved integer,
  critic_pass boolean,
  exec_valid boolean,
  weak_below double precision
) RETURNS double precision LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT 0::double precision
    + CASE WHEN mutation_score < weak_below THEN 2 ELSE 0 END
    + CASE WHEN flaky THEN 4 ELSE 0 END
    + CASE WHEN solvers_total > 0 AND solvers_solved = 0 THEN 3 ELSE 0 END
    + CASE WHEN critic_pass IS NOT NULL AND exec_valid IS NOT NULL AND flaky IS NOT TRUE AND critic_pass <> exec_valid
           THEN 3 ELSE 0 END
    + CASE WHEN mutation_score IS NOT NULL THEN (1 - mutation_score) / 2 ELSE 0 END
    + CASE WHEN solvers_total > 0 THEN (1 - solvers_solved::double precision / solvers_total) / 2 ELSE 0 END
$$;
