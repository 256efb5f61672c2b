-- must hold: every quarantined log says where it was (path), which rule refused it and why.
-- grain: one row per offending quarantine row.
SELECT path, match_id, seq, rule, reason, batch
FROM quarantine
WHERE path IS NULL OR path = ''
   OR rule IS NULL OR rule = ''
   OR reason IS NULL OR reason = ''
