-- What a rating reads of a finished game beyond scores and wins (see hvbot.services.ratings).
-- A seat that left the game early ranks last whatever the AI that took it over did: a
-- resignation, a forfeit when the clock ran out, a moderator's removal.
ALTER TABLE results ADD COLUMN left_early INTEGER NOT NULL DEFAULT 0 CHECK (left_early IN (0, 1));
-- The level of the AI that held the seat at the end (NULL: a person played it to the end); an
-- AI seat's results rate that level.
ALTER TABLE results ADD COLUMN ai_level TEXT;
-- Results stored before: the level from their seats; resigned seats left early, and so did
-- seats a moderator removed, known by the name the bot gives them (in the language of the
-- game's posts, as `hvbot.services.seat_names` reads it). A forfeit's loser needs nothing:
-- the only seat that did not win, it ranks last anyway.
UPDATE results SET
    ai_level = (SELECT s.ai_level FROM seats s
                WHERE s.game_id = results.game_id AND s.seat = results.seat),
    left_early = COALESCE((SELECT CASE WHEN s.resigned_user_id IS NOT NULL
                    OR (s.user_id IS NULL AND s.away_user_id IS NULL AND (
                        s.display_name LIKE '% (removed, AI plays)'
                        OR s.display_name LIKE '% (rimosso, gioca l''IA)'
                        OR s.display_name LIKE '% (retiré, l''IA joue)'
                        OR s.display_name LIKE '% (entfernt, KI spielt)'))
                    THEN 1 ELSE 0 END FROM seats s
                WHERE s.game_id = results.game_id AND s.seat = results.seat), 0);
