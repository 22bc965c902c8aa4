-- A record's evidence reasons (functions/verity_evidence_reasons.sql) from its columns, its critic
-- verdict and its solutions (those that ran: passed is known).
-- Called by functions/verity_keep_record_evidence.sql and functions/verity_evidence_sources_changed.sql.
CREATE OR REPLACE FUNCTION verity_record_evidence_reasons(
  record_id integer, mutation_score double precision, flaky boolean, executable_valid boolean
) RETURNS integer LANGUAGE sql STABLE AS $$
  SELECT verity_evidence_reasons(
    mutation_score, flaky, executable_valid,
    (SELECT c."overallPass" FROM "CriticVerdict" c WHERE c."recordId" = record_id),
    s.ran, s.passed)
  FROM (SELECT count(*)::integer AS ran, (count(*) FILTER (WHERE passed))::integer AS passed
        FROM "Solution" WHERE "recordId" = record_id AND passed IS NOT NULL) s
$$;
