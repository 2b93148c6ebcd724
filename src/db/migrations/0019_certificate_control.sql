-- Certificates name whose endpoints they cover (decision 0019): the payTo address whose control
-- the request proved, how it proved it, and the host of the certified URL or pattern. Rows
-- issued before control was required keep nulls, and their live state shows them as lapsed.
alter table certificates
  add column pay_to    text,
  add column host      text,
  add column proven_by text check (proven_by in ('payment', 'signature')),
  add check ((pay_to is null) = (proven_by is null));
