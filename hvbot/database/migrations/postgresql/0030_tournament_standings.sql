-- The standings after a round are posted once: with the next round's pairing, or as soon as the
-- round's last game ends while its tournament is paused. `standings_at`: when they were owed,
-- set in the transaction that owes them (NULL: not yet).
ALTER TABLE tournament_rounds ADD COLUMN standings_at TEXT;
