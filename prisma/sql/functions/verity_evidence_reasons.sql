-- The evidence reasons a record is in, as a mask (lib/evidence/suspicion.ts evidenceReasonsOf, bit
-- 2^k for EVIDENCE_REASONS[k]): 1 weak tests (mutation score below 0.5, WEAK_TESTS_THRESHOLD), 2
-- flaky, 4 solved by no model (a solution ran, none passed), 8 critic and execution disagree (both
-- have a verdict, they differ, the record is not flaky). Pure; lib/server/evidence/reasons.ts reads
-- the bits, and an integration test holds the two to the same answers.
-- Called by functions/verity_record_evidence_reasons.sql and functions/verity_keep_record_evidence.sql.
CREATE OR REPLACE FUNCTION verity_evidence_reasons(
  mutation_score double precision, flaky boolean, executable_valid boolean, critic_pass boolean,
  solvers_ran integer, solvers_passed integer
) RETURNS integer LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT (CASE WHEN mutation_score < 0.5 THEN 1 ELSE 0 END)
       | (CASE WHEN flaky THEN 2 ELSE 0 END)
       | (CASE WHEN solvers_ran > 0 AND solvers_passed = 0 THEN 4 ELSE 0 END)
       | (CASE WHEN critic_pass IS NOT NULL AND executable_valid IS NOT NULL AND flaky IS NOT TRUE
                    AND critic_pass <> executable_valid THEN 8 ELSE 0 END)
$$;
