-- An account is one partner at most: POST /api/partners/apply lets an existing account apply,
-- and two applications at once must not make two partners.
DROP INDEX partners_user;
CREATE UNIQUE INDEX partners_user ON partners (user_id);
