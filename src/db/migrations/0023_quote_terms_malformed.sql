-- One amount reader (issue 34, docs/verdicts.md): a challenge entry whose amount reads more than
-- one way (padded, hex, beyond uint256, `amount` and `maxAmountRequired` disagreeing) is kept in
-- the quote history, marked with why, so the verdict can say malformed_quote; null = well-formed.
alter table quote_terms add column malformed text;
